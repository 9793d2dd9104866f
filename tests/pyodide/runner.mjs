// Runs an xlwings Lite main.py in the real Pyodide, loaded from node_modules (no CDN), and calls
// its Excel functions the way Excel and xlwings Lite do.
//
//   node runner.mjs REQUEST.json        prints one line of JSON on stdout
//
// REQUEST: {"line": "pyodide-314",                  (a folder in node_modules: package.json)
//           "runs": [{"name": "newest",              (a wheel set: its wheels are unpacked alone)
//                     "wheels": ["/abs/xlwings-....whl", ...],
//                     "main_py": "/abs/main.py",
//                     "calls": [{"id": "blank row", "func": "MJ_SETTLE",
//                                "args": [[[35700, 32400, 22200, 9700], [null, null, null, null]]],
//                                "repeat": 0}]}]}
//
// Each call's body is built here as xlwings' custom-functions-code.js builds it for Excel
// (xlwings/xlwings-server, xlwings_server/static/js/custom-functions/custom-functions-code.js,
// base()): every declared parameter is passed, and Excel gives an omitted optional argument
// the value null ("When no value is specified for an optional parameter, Excel assigns it the
// value null", learn.microsoft.com/en-us/office/dev/add-ins/excel/
// custom-functions-parameter-options), so missing trailing arguments become null; blank cells
// are the null entries of the args. The body reaches Python as a JS object, as in the runtime.
// "repeat": N times the call again once warm and reports the times (benchmarks/);
// "conversion": true also times the runtime's conversion of the arguments and the answer.
//
// Python's own output goes to stderr, so stdout holds only the answer.

import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Start one Pyodide line from node_modules, with tests/pyodide/lite_runtime.py importable. */
export async function loadLine(line) {
  const dir = path.join(here, "node_modules", line);
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const log = (text) => process.stderr.write(`${text}\n`);
  const started = performance.now();
  const pyodide = await loadPyodide({ indexURL: dir + path.sep, stdout: log, stderr: log });
  pyodide.FS.mkdirTree("/lite_runtime");
  pyodide.FS.writeFile("/lite_runtime/lite_runtime.py",
    readFileSync(path.join(here, "lite_runtime.py"), "utf8"));
  pyodide.runPython("import sys; sys.path.insert(0, '/lite_runtime')");
  const runtime = pyodide.pyimport("lite_runtime");
  return { pyodide, runtime, loadMs: performance.now() - started };
}

/** The body Excel's custom function posts (custom-functions-code.js, base()). */
function excelBody(func, args, parameters, xlwingsVersion) {
  const padded = args.slice();
  while (padded.length < parameters) padded.push(null);
  return {
    client: "Office.js",
    func_name: func,
    args: padded,
    caller_address: "[umaoka.xlsx]Games!K2",
    session_id: "umaoka-pyodide-test",
    culture_info_name: "en-US",
    date_format: "M/d/yyyy",
    version: xlwingsVersion,
    runtime: "1.4",
  };
}

/** What Excel would show: the values, or the error message of makeWasmCall()/showError(). */
function cellResult(result) {
  if (result && !Array.isArray(result) && typeof result === "object" && "error" in result) {
    return { error: result.error, details: result.details };
  }
  return { value: result === undefined ? null : result };
}

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One wheel set: install it, load main.py as the runtime does, make every call. */
export async function runMain({ pyodide, runtime }, run) {
  const out = { name: run.name, results: {} };
  const wheelPaths = run.wheels.map((file, i) => {
    const target = `/wheels/${run.name}/${i}-${path.basename(file)}`;
    pyodide.FS.mkdirTree(path.posix.dirname(target));
    pyodide.FS.writeFile(target, readFileSync(file));
    return target;
  });
  const versions = runtime.use_wheels(run.name, pyodide.toPy(wheelPaths));
  out.versions = versions.toJs({ dict_converter: Object.fromEntries });
  versions.destroy();
  const source = readFileSync(run.main_py, "utf8");
  let started = performance.now();
  const registered = runtime.register(source);
  out.register_ms = performance.now() - started;
  if (registered.error) {
    out.error = registered.error;
    return out;
  }
  out.functions = registered.functions;
  out.code = registered.code;
  for (const call of run.calls) {
    const parameters = registered.functions[call.func] ?? call.args.length;
    const body = () => excelBody(call.func, call.args, parameters, out.versions.xlwings);
    started = performance.now();
    const result = cellResult(await runtime.custom_functions_call(body()));
    result.first_ms = performance.now() - started;
    if (call.conversion) {
      // the runtime's own share, for benchmarks/: JS -> Python of the arguments (its
      // data.to_py()) and Python -> JS of the answer (its to_js), timed alone
      const args = pyodide.toPy(body());  // warm-up: the same work twice, the second timed
      args.destroy();
      started = performance.now();
      const again = pyodide.toPy(body());
      result.to_py_ms = performance.now() - started;
      again.destroy();
      const answer = pyodide.toPy(result.value);
      started = performance.now();
      answer.toJs({ dict_converter: Object.fromEntries });
      result.to_js_ms = performance.now() - started;
      answer.destroy();
    }
    if (call.repeat) {
      const times = [];
      for (let i = 0; i < call.repeat; i++) {
        started = performance.now();
        await runtime.custom_functions_call(body());
        times.push(performance.now() - started);
      }
      result.warm_ms = { median: median(times), min: Math.min(...times), n: times.length };
    }
    out.results[call.id] = result;
  }
  return out;
}

export async function runRequest(request) {
  const line = await loadLine(request.line);
  const answer = {
    line: request.line,
    pyodide: line.pyodide.version,
    python: line.pyodide.runPython("import sys; sys.version.split()[0]"),
    load_ms: line.loadMs,
    runs: [],
  };
  for (const run of request.runs) {
    answer.runs.push(await runMain(line, run));
  }
  return answer;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const request = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const answer = await runRequest(request);
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
