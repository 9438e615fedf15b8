// The rules engine in the browser (issue 18): Pyodide runs games/, the same Python the server settles lines with,
// so a table's running totals stay right while the Wi-Fi is away. Nothing here settles a deal itself.
//
// The page gives, in <script type="application/json" id="engine-spec">: where Pyodide's files are ("pyodide"), the
// engine's zip ("archive"), the sheet's rule set as the engine's JSON ("rules"), its players and its deals.
// Loading takes seconds and some megabytes, so it starts only when asked (engine()), once per page.

const SETTLE = `
import json
from games.errors import GameError, InvalidLine
from games.rulesets import RuleSet
from games.sessions import open_sheet


def settle_sheet(request_text):
    """Each line settled in order, as the server's sheet does: its points and multiplier, or the errors that
    stop it (the lines after a refused one are not judged)."""
    request = json.loads(request_text)
    rules = RuleSet.from_json(request["rules"])
    sheet = open_sheet(rules, request["players"], request["deals"])
    results = []
    for line in request["lines"]:
        try:
            settled = sheet.add(line)
        except InvalidLine as exc:
            results.append({"errors": [e.as_dict() for e in exc.errors]})
            break
        except GameError as exc:
            results.append({"errors": [{"code": "invalid", "field": "", "message": str(exc)}]})
            break
        results.append({"points": list(settled.points), "multiplier": settled.multiplier})
    after = {"next_deal": getattr(sheet, "next_deal", None), "dealer": getattr(sheet, "expected_dealer", None)}
    return json.dumps({"results": results, **after})


settle_sheet
`;

let loading = null;

function spec() {
  return JSON.parse(document.getElementById("engine-spec").textContent);
}

// Every file the engine needs, answered (by the service worker's copy, offline): Pyodide may hang rather than fail
// when one of its own fetches fails, so a missing file is found here first and the start is tried again later.
const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

async function reachable(base, archive) {
  for (const url of [...FILES.map((name) => `${base}${name}`), archive]) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.body) response.body.cancel();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  }
}

async function load() {
  const { pyodide: base, archive } = spec();
  await reachable(base, archive);
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: base });
  const zip = await fetch(archive, { credentials: "same-origin" });
  if (!zip.ok) throw new Error(`the engine's archive answered ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  const settleSheet = pyodide.runPython(SETTLE);
  return {
    version: pyodide.version,
    // Settle ``lines`` (the engine's line objects, in order) on this page's sheet: one result per line.
    settle(lines) {
      return this.sheet(lines).results;
    },
    // The same, with what the sheet expects next: { results, next_deal, dealer } (dealer: an engine position).
    sheet(lines) {
      const { rules, players, deals } = spec();
      return JSON.parse(settleSheet(JSON.stringify({ rules, players, deals, lines })));
    },
  };
}

// Pyodide may neither start nor fail when a file of it breaks off (the Wi-Fi going as it loads): give up after a
// while, so that a later call tries again. A mid-range phone takes 15 to 26 s to start it (bench/first_load.py).
const GIVE_UP_MS = 90000;

export function engine() {
  if (!loading) {
    const late = new Promise((_, reject) => {
      setTimeout(() => reject(new Error("the engine did not start in time")), GIVE_UP_MS);
    });
    loading = Promise.race([load(), late]).catch((error) => {
      loading = null; // a later call tries again (the files may not have reached the browser yet)
      throw error;
    });
  }
  return loading;
}
