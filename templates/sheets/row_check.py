"""A league tab's row formulas: the Check and its hidden helper cells, each seat's place,
and the last place, written once per tab with the row's number left open."""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.templates.book.labels import label
from umaoka.templates.xlsx.cells import ROW, RowFormula
from umaoka.templates.xlsx.styles import escaped, exact


def row_formulas(lang: str, cols: Any, n: int, start_ref: str, ties_ref: str,
                 caps: str | None = None
                 ) -> tuple[RowFormula, dict[int, RowFormula], list[RowFormula], RowFormula]:
    """A game row's formulas (check, the check's helper cells by column, each seat's
    place, last place), written once with the row's number left open
    (:class:`.cells.RowFormula`).

    The Check is built from hidden helper cells, one per kind of check (scores, names,
    game caps), each showing its message or "": the Check shows the first message,
    "OK" when there is none. One formula for it all repeated every seat's escaped name
    in every branch and passed Excel's 8,192 characters (Excel removes such a formula
    as damaged); a new kind of check is one more helper cell and one more branch.
    """
    row = ROW
    sc = [col_letter(c) for c in cols.scores]
    res = [col_letter(c) for c in cols.results]
    plc = [col_letter(c) for c in cols.places]
    gv = [col_letter(c) for c in cols.given_cols]
    dep = col_letter(cols.deposits)
    lab_ok, lab_off = label("ok", lang), label("off_by", lang)
    lab_100, lab_miss = label("not_100", lang), label("missing", lang)
    lab_roster = label("not_on_roster", lang)
    lab_platform, lab_gmiss = label("by_platform", lang), label("given_missing", lang)
    rng = f"{sc[0]}{row}:{sc[-1]}{row}"
    # blank: nothing typed (COUNTA: a score typed as text is something typed)
    blank = f"AND(COUNTA({rng})=0,N({dep}{row})=0)"
    helpers: dict[int, RowFormula] = {}
    # the names: a name not on the roster is likely a typo (it would rank as a new
    # player); one on it in another case only ("chie" for "Chie") is another player in
    # the standings: FIND is case-sensitive, COUNTIF and MATCH are not; both match the
    # name exactly otherwise (its wildcards escaped: "A*" is not Aki)
    names = '""'
    lab_case = label("case_differs", lang)
    for c in reversed(cols.players):
        p = f"{col_letter(c)}{row}"
        case = f'ISERROR(FIND(INDEX(Roster,MATCH({escaped(p)},Roster,0)),{p}))'
        # each seat's tests once (AND, not IF(p="",rest,...) around the rest: that
        # doubled the rest for every seat)
        names = (f'IF(AND({p}<>"",COUNTIF(Roster,{exact(p)})=0),"{lab_roster}: "&{p},'
                 f'IF(AND({p}<>"",{case}),"{lab_case}: "&{p},{names}))')
    helpers[cols.check_names] = RowFormula("=" + names)
    # the scores
    total = f"SUM({rng})+N({dep}{row})"
    whole = f"{start_ref}*{n}"
    # scores that add up once scaled were typed in thousands or hundreds (35.7 for
    # 35,700): the engine's words, not "Off by -99,900" (ROUND: 35.7+32.4+... in floats)
    scaled = [f'OR(ROUND(SUM({rng})*{k}+N({dep}{row})-{whole},6)=0,'
              f'ROUND(({total})*{k}-{whole},6)=0)' for k in (1000, 100)]
    lab_k, lab_h = label("in_thousands", lang), label("in_hundreds", lang)
    odd = f"OR({total}<>{whole},SUMPRODUCT(MOD({rng},100))<>0)"
    # a score typed as text (COUNTA sees it, COUNT does not) refuses the row, as the
    # engine does
    lab_text = label("score_text", lang)
    scores = (f'IF({blank},"",'
              f'IF(COUNT({rng})<{n},IF(COUNTA({rng})>COUNT({rng}),"{lab_text}",'
              f'"{lab_miss}"),'
              f'IF(AND({odd},{scaled[0]}),"{lab_k}",'
              f'IF(AND({odd},{scaled[1]}),"{lab_h}",'
              f'IF({total}<>{whole},'
              f'"{lab_off} "&TEXT({total}-{whole},"+#,##0;-#,##0"),'
              f'IF(SUMPRODUCT(MOD({rng},100))<>0,"{lab_100}",""))))))')
    helpers[cols.check_scores] = RowFormula("=" + scores)
    # the game caps (season workbooks: ``caps``, the season sheet's test of a row)
    if caps is not None:
        helpers[cols.check_caps] = RowFormula("=" + caps)

    def first_message(kinds: list[int], otherwise: str) -> str:
        """The first helper cell of ``kinds`` with a message, else ``otherwise``."""
        out = otherwise
        for c in reversed(kinds):
            h = f"{col_letter(c)}{row}"
            out = f'IF({h}<>"",{h},{out})'
        return out

    check = (f'IF({blank},"",' + first_message(
        [c for c in (cols.check_scores, cols.check_names, cols.check_caps)
         if c in helpers], f'"{lab_ok}"') + ")")
    if cols.given:
        # rows settled by a platform: every seat's finals, their names, no game caps
        grng = f"{gv[0]}{row}:{gv[-1]}{row}"
        platform = first_message([cols.check_names], f'"{lab_platform}"')
        check = (f'IF(COUNTA({grng})>0,IF(COUNT({grng})<{n},"{lab_gmiss}",{platform}),'
                 f"{check})")
    places = []
    for s in range(n):
        tie = ""
        if s:
            tie = (f'+IF({ties_ref}="seat",'
                   f'COUNTIF(${sc[0]}{row}:{sc[s - 1]}{row},"="&{sc[s]}{row}),0)')
        place = f'1+COUNTIF(${sc[0]}{row}:${sc[-1]}{row},">"&{sc[s]}{row}){tie}'
        if cols.given:
            # platform finals in finishing order: equal finals by seat
            earlier = (f'+COUNTIF(${gv[0]}{row}:{gv[s - 1]}{row},"="&{gv[s]}{row})'
                       if s else "")
            place = (f"IF(COUNT(${gv[0]}{row}:${gv[-1]}{row})={n},"
                     f'1+COUNTIF(${gv[0]}{row}:${gv[-1]}{row},">"&{gv[s]}{row})'
                     f"{earlier},{place})")
        places.append(RowFormula(f'=IF(ISNUMBER({res[s]}{row}),{place},"")', shared=False))
    last = RowFormula(f"=IF(ISNUMBER({plc[0]}{row}),MAX({plc[0]}{row}:{plc[-1]}{row}),0)")
    # each seat's shared place: the worst place it shares, and how many share it
    span = f"${plc[0]}{row}:${plc[-1]}{row}"
    for s in range(n):
        p = f"{plc[s]}{row}"
        helpers[cols.worst[s]] = RowFormula(f'=IF(ISNUMBER({p}),COUNTIF({span},"<="&{p}),0)')
        helpers[cols.tied[s]] = RowFormula(f"=IF(ISNUMBER({p}),COUNTIF({span},{p}),1)")
    return RowFormula("=" + check), helpers, places, last
