"""Times the specification's decision rule over a fixture, for `npm run bench`.

The rule is run as test/helpers/reference_decisions.py implements it, our second implementation of
the specification: it checks and decides each case as the specification's rubric.py does (the same
rubric, answer, binding, judgement and excerpt checks, the same fingerprints, the same
pending-first all-criteria rule; only the wording of the two pending reasons differs). As for the
core, starting the interpreter and importing the module are left out; the decisions are counted by
status, not printed. Prints one JSON line: seconds, cases, statuses and peak RSS.
"""
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'helpers'))
from reference_decisions import decide_fixture  # noqa: E402

start = time.perf_counter()
decisions = decide_fixture(sys.argv[1])
seconds = time.perf_counter() - start
statuses = {}
for decision in decisions.values():
    statuses[decision['status']] = statuses.get(decision['status'], 0) + 1
print(json.dumps({'seconds': seconds, 'cases': len(decisions), 'statuses': statuses, 'rssMiB': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
