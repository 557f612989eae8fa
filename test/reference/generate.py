#!/usr/bin/python3
"""Regenerates the reference values the statistics tests compare with.

A second implementation of each statistic, computed once for fixed inputs and committed as data, so
that `npm test` needs no Python package:

- second-implementation.json: Cohen's kappa (scikit-learn's cohen_kappa_score), the Wilson interval
  (statsmodels' proportion_confint), the normal quantile (SciPy's ndtri) and percentiles (NumPy's
  default, linear);
- paired-second-implementation.json: McNemar's exact p-value (statsmodels' mcnemar(exact=True)).

The inputs are drawn from a fixed seed, hundreds of them, with the edge cases the statistics must
handle (a coder who never varies, two who never do, 0 or n successes, p near 0 and 1, empty cells).

Run it when a statistic, its inputs or this script change, with Debian's python3 and
`apt-get install -y python3-statsmodels python3-sklearn`:

    /usr/bin/python3 test/reference/generate.py

Each file records the SHA-256 of this script, and the tests fail until the data is regenerated
after an edit of it.
"""

import hashlib
import json
import math
import random
import sys
import warnings
from pathlib import Path

import numpy
import scipy
import sklearn
import statsmodels
from scipy.special import ndtri
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

SEED = 34
HERE = Path(__file__).resolve().parent
LABELS = ['meets', 'partly', 'does_not_meet', 'not_applicable']


def kappa_inputs(rng):
    sets = []
    for index in range(300):
        n = 1 + rng.randrange(80)
        q = 2 + rng.randrange(3)
        skew = rng.random()

        def label():
            return 0 if rng.random() < skew else rng.randrange(q)

        a = [label() for _ in range(n)]
        # Every tenth set: the first coder never varies; every fifteenth: neither does (kappa undefined).
        if index % 10 == 0:
            a = [0] * n
        b = [value if index % 15 == 0 else value if rng.random() < 0.6 else label() for value in a]
        sets.append({'a': a, 'b': b})
    return sets


def wilson_inputs(rng):
    cases = []
    for _ in range(200):
        n = 1 + rng.randrange(500)
        s = (0 if rng.random() < 0.5 else n) if rng.random() < 0.2 else rng.randrange(n + 1)
        cases.append({'s': s, 'n': n, 'level': rng.choice([0.8, 0.9, 0.95, 0.99, 0.999])})
    return cases


def ndtri_inputs(rng):
    fixed = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.02425, 0.075, 0.5, 0.9, 0.97575, 0.999, 1 - 1e-10]
    return fixed + [rng.random() or 0.5 for _ in range(200)]


def percentile_inputs(rng):
    # Six decimals keep the file small; ties between samples are then possible, as they are in a bootstrap.
    return [
        {'samples': [round(rng.uniform(-1, 1), 6) for _ in range(1 + rng.randrange(300))], 'level': rng.choice([0.5, 0.8, 0.9, 0.95, 0.99])}
        for _ in range(100)
    ]


def mcnemar_inputs(rng):
    tables = [
        {'both': 0, 'aOnly': 0, 'bOnly': 0, 'neither': 1},
        {'both': 3, 'aOnly': 0, 'bOnly': 9, 'neither': 0},
        {'both': 0, 'aOnly': 1, 'bOnly': 0, 'neither': 0},
        {'both': 10, 'aOnly': 4, 'bOnly': 4, 'neither': 10},
    ]
    for _ in range(300):
        scale = rng.choice([5, 30, 200, 1500])
        tables.append({key: rng.randrange(scale) for key in ('both', 'aOnly', 'bOnly', 'neither')})
    return tables


def finite(x):
    x = float(x)
    return None if math.isnan(x) else x


def header(computed_by):
    return {
        'generatedBy': 'test/reference/generate.py',
        'scriptSha256': hashlib.sha256((HERE / 'generate.py').read_bytes()).hexdigest(),
        'seed': SEED,
        'computedBy': computed_by,
    }


def write(name, document):
    # One input and its reference value a line, so that a regeneration's diff shows what moved.
    lines = ['{']
    entries = list(document.items())
    for position, (key, value) in enumerate(entries):
        comma = ',' if position < len(entries) - 1 else ''
        if isinstance(value, list):
            lines.append(f'  {json.dumps(key)}: [')
            lines.extend(f'    {json.dumps(item, allow_nan=False, separators=(",", ":"))}{"," if i < len(value) - 1 else ""}' for i, item in enumerate(value))
            lines.append(f'  ]{comma}')
        else:
            lines.append(f'  {json.dumps(key)}: {json.dumps(value, allow_nan=False)}{comma}')
    lines.append('}')
    (HERE / name).write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print(f'wrote test/reference/{name}', file=sys.stderr)


def main():
    warnings.simplefilter('ignore')
    rng = random.Random(SEED)
    kappa = [{**case, 'kappa': finite(cohen_kappa_score(case['a'], case['b']))} for case in kappa_inputs(rng)]
    wilson = [{**c, 'interval': list(map(float, proportion_confint(c['s'], c['n'], alpha=1 - c['level'], method='wilson')))} for c in wilson_inputs(rng)]
    quantiles = [{'p': p, 'ndtri': float(ndtri(p))} for p in ndtri_inputs(rng)]
    percentiles = [
        {**c, 'interval': list(map(float, numpy.percentile(c['samples'], [50 * (1 - c['level']), 50 * (1 + c['level'])])))}
        for c in percentile_inputs(rng)
    ]
    tables = [
        {'counts': t, 'pValue': float(mcnemar([[t['both'], t['aOnly']], [t['bOnly'], t['neither']]], exact=True).pvalue)} for t in mcnemar_inputs(rng)
    ]
    write(
        'second-implementation.json',
        {
            **header(f'scikit-learn {sklearn.__version__}, statsmodels {statsmodels.__version__}, SciPy {scipy.__version__}, NumPy {numpy.__version__}'),
            # The kappa sets hold indexes into these labels.
            'labels': LABELS,
            'kappa': kappa,
            'wilson': wilson,
            'ndtri': quantiles,
            'percentile': percentiles,
        },
    )
    write('paired-second-implementation.json', {**header(f'statsmodels {statsmodels.__version__}'), 'mcnemar': tables})


if __name__ == '__main__':
    main()
