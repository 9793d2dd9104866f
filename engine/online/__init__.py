"""Online play: games from Tenhou and Mahjong Soul, their rank points and ratings.

``imported`` is one game as an online platform or a published result gives it;
``tenhou`` reads Tenhou's logs and lobby lines; ``imports`` reads any results file into
games; ``ranks`` and ``rankpoints`` are the platforms' dan and rank-point rules;
``rating`` is Tenhou's R over a player's games.
"""
