#!/usr/bin/env python3
"""Regenerates test/reference/ppi-paired-second-implementation.json, the values ppiDifference is compared with.

A second implementation of the prediction-powered estimate of a paired difference B - A
(docs/statistics.md, "Judge-assisted paired comparison"), written from the definitions on that page,
not from the TypeScript: NumPy arrays of each task's two human and two judge labels, the difference
taken per task, the power-tuning parameter found as the vertex of the variance's parabola in lambda
(evaluated at lambda = -1, 0, 1) rather than from its closed form, the variance computed from the
rectifier's residuals, and the interval's quantile Student's t (SciPy) at Satterthwaite's degrees
of freedom of that variance, the normal quantile from Python's statistics.NormalDist when they are
infinite.

The inputs are drawn from a fixed seed: hundreds of paired splits, uniform, stratified and active
(Poisson) designs, hard and soft judge labels, pending sides, fixed and tuned lambda, both estimands,
and the refusals (missing judge labels, too few decided pairs, too few discordant pairs, a stratum
too small, no variation).

Run it with a python3 that has NumPy and SciPy:

    python3 test/reference/generate_ppi_paired.py

The file records this script's SHA-256; the tests fail until it is run after an edit of it.
"""

import hashlib
import json
import random
import sys
from pathlib import Path
from statistics import NormalDist

import numpy as np
import scipy
from scipy.stats import t as student_t

SEED = 3703
HERE = Path(__file__).resolve().parent
MIN_REVIEWS = 30
MIN_DISCORDANT = 10


def encode_judge(values):
    # Quarter steps, one character each; 'x' where the judge gave no label.
    return ''.join('x' if v is None else str(int(round(v * 4))) for v in values)


def judge_of(rng, quality, y):
    if quality == 'constant':
        return 1.0
    if quality == 'soft':
        return min(4, max(0, 2 + (1 if y else -1) * rng.randrange(3) + rng.choice([-1, 0, 0, 1]))) / 4
    if quality == 'biased':
        return 1.0 if y or rng.random() < 0.3 else 0.0
    flip = {'perfect': 0, 'good': 0.05, 'fair': 0.2, 'poor': 0.4}[quality]
    return float(1 - y if rng.random() < flip else y)


def draw_split(rng, index):
    n_cases = rng.choice([40, 120, 400, 1000, 2000])
    # The paired table: both accepted, A only, B only, neither.
    cells = [rng.random() for _ in range(4)]
    if index % 31 == 0:
        cells = [0.7, 0.002, 0.003, 0.295]  # almost no discordant pair
    total = sum(cells)
    cells = [c / total for c in cells]
    human = []
    for _ in range(n_cases):
        u = rng.random()
        if u < cells[0]:
            human.append((1, 1))
        elif u < cells[0] + cells[1]:
            human.append((1, 0))
        elif u < cells[0] + cells[1] + cells[2]:
            human.append((0, 1))
        else:
            human.append((0, 0))
    quality = rng.choice(['perfect', 'good', 'fair', 'poor', 'biased', 'soft', 'constant'])
    judge_a = [judge_of(rng, quality, a) for a, _ in human]
    judge_b = [judge_of(rng, quality, b) for _, b in human]
    if index % 29 == 0:
        side = judge_a if rng.random() < 0.5 else judge_b
        for i in rng.sample(range(n_cases), 1 + rng.randrange(3)):
            side[i] = None
    design = 'stratified' if index % 23 == 0 else rng.choice(['uniform', 'uniform', 'stratified', 'active'])
    size = min(n_cases, rng.choice([12, 35, 60, 150, 300]))
    sample = []  # [index, probability, a, b, stratum]
    if design == 'uniform':
        for i in rng.sample(range(n_cases), size):
            sample.append([i, size / n_cases, human[i][0], human[i][1], None])
    elif design == 'stratified':
        strata = {}
        for i in range(n_cases):
            g = (judge_b[i] or 0) - (judge_a[i] or 0)
            strata.setdefault('up' if g > 0 else 'down' if g < 0 else 'same', []).append(i)
        for name, members in strata.items():
            # Every 23rd split gives one stratum a single draw: a stratum too small for its variance.
            take = 1 if index % 23 == 0 and name == 'same' else min(len(members), max(1, round(size * len(members) / n_cases)))
            for i in rng.sample(members, take):
                sample.append([i, take / len(members), human[i][0], human[i][1], name])
    else:
        score = [rng.random() for _ in range(n_cases)]
        uncertainty = [0.1 + min(s, 1 - s) for s in score]
        total_u = sum(uncertainty)
        for i in range(n_cases):
            probability = min(1.0, round(size * (0.3 / n_cases + 0.7 * uncertainty[i] / total_u), 6))
            if rng.random() < probability:
                sample.append([i, probability, human[i][0], human[i][1], None])
    if rng.random() < 0.3:
        for drawn in sample:
            if rng.random() < 0.1:
                drawn[2] = None
            if rng.random() < 0.1:
                drawn[3] = None
    rng.shuffle(sample)
    options = {
        'level': rng.choice([0.8, 0.9, 0.95, 0.99]),
        'lambda': rng.choice(['tuned', 'tuned', 'tuned', 1, round(rng.random(), 3)]),
        'worstCase': rng.random() < 0.85,
        'estimand': rng.choice(['split', 'split', 'system']),
    }
    return {'design': design, 'judgeA': encode_judge(judge_a), 'judgeB': encode_judge(judge_b), 'sample': sample, 'options': options}


def encode_sample(design, sample):
    encoded = {
        'index': [s[0] for s in sample],
        'a': ''.join('p' if s[2] is None else str(s[2]) for s in sample),
        'b': ''.join('p' if s[3] is None else str(s[3]) for s in sample),
    }
    if design == 'uniform':
        encoded['probability'] = sample[0][1] if sample else 1
    elif design == 'stratified':
        encoded['probability'] = {s[4][0]: s[1] for s in sample}
        encoded['stratum'] = ''.join(s[4][0] for s in sample)
    else:
        encoded['probability'] = [s[1] for s in sample]
    return encoded


def hajek(pi, e, strata):
    """The Hájek mean of e with weights 1/pi, and its design variance: with-replacement within strata, each term times 1 - pi."""
    w = 1 / pi
    mean = (w * e).sum() / w.sum()
    u = w * (e - mean) / w.sum()
    variance = 0.0
    for name in np.unique(strata):
        chosen = strata == name
        part = u[chosen]
        variance += len(part) / (len(part) - 1) * ((1 - pi[chosen]) * (part - part.mean()) ** 2).sum()
    return mean, variance


def degrees_of_freedom(pi, e, strata, spread):
    """Satterthwaite's 2v^2 / var(v): v the spread plus the per-task terms of the design variance of the
    Hajek mean of e, var(v) their spread within each stratum (n_h/(n_h - 1) times the sum of squared
    deviations from the stratum's mean term) plus 2 spread^2 / (n - 1)."""
    w = 1 / pi
    centre = (w * e).sum() / w.sum()
    total, variance_of_total = spread, 2 * spread * spread / (len(e) - 1)
    for name in sorted(set(strata.tolist())):
        members = [j for j in range(len(e)) if strata[j] == name]
        k = len(members)
        u = [w[j] * (e[j] - centre) / w.sum() for j in members]
        u_mean = sum(u) / k
        terms = [k / (k - 1) * (1 - pi[j]) * (u[m] - u_mean) ** 2 for m, j in enumerate(members)]
        t_mean = sum(terms) / k
        total += sum(terms)
        variance_of_total += k / (k - 1) * sum((term - t_mean) ** 2 for term in terms)
    return float('inf') if variance_of_total <= 0 else 2 * total * total / variance_of_total


def critical(level, df):
    p = (1 + level) / 2
    return NormalDist().inv_cdf(p) if df == float('inf') else float(student_t.ppf(p, df))



def effective_reviews(n, n_all, classical_variance, variance, system):
    """The m reviews drawn alike whose human-only variance equals the judge-assisted one. For the system's rate
    that variance is s²/m, s² = n·v_classical; for the split's it is (1 - m/N)·s²/m = s²/m - s²/N, with
    s² = n·v_classical / (1 - n/N), so m = 1 / (v/s² + 1/N): never more than N."""
    if classical_variance <= 0:
        return float(n)
    if system:
        return float(n * classical_variance / variance) if variance > 0 else float(n)
    if n >= n_all:
        return float(n)
    s2 = n * classical_variance / (1 - n / n_all)
    return float(1 / (variance / s2 + 1 / n_all))

def estimate(case):
    options, sample = case['options'], case['sample']
    decided = [s for s in sample if s[2] is not None and s[3] is not None]
    counts = {'cases': len(case['judgeA']), 'sampled': len(sample), 'decided': len(decided), 'pending': len(sample) - len(decided)}
    if 'x' in case['judgeA'] or 'x' in case['judgeB']:
        return {'status': 'unsupported', 'reason': 'judge-missing', **counts}
    if len(decided) < MIN_REVIEWS:
        return {'status': 'unsupported', 'reason': 'too-few-reviews', **counts}
    if sum(1 for s in decided if s[2] != s[3]) < MIN_DISCORDANT:
        return {'status': 'unsupported', 'reason': 'too-few-discordant', **counts}
    for name in {s[4] for s in sample}:
        if sum(1 for s in decided if s[4] == name) < 2:
            return {'status': 'unsupported', 'reason': 'stratum-too-small', **counts}
    fa = np.array([int(c) / 4 for c in case['judgeA']])
    fb = np.array([int(c) / 4 for c in case['judgeB']])
    g_all = fb - fa
    index = np.array([s[0] for s in decided])
    pi = np.array([s[1] for s in decided])
    w = 1 / pi
    d = np.array([s[3] - s[2] for s in decided], dtype=float)
    g = g_all[index]
    strata = np.array([s[4] or '' for s in decided])
    n, n_all = len(decided), len(g_all)
    spread = 0.0
    if options['estimand'] == 'system':
        d_bar = (w * d).sum() / w.sum()
        spread = n / (n - 1) * (w * (d - d_bar) ** 2).sum() / w.sum() / n_all

    def total_variance(lam):
        return spread + hajek(pi, d - lam * g, strata)[1]

    def constant_within_strata(values):
        return all(len(np.unique(values[strata == name])) == 1 for name in np.unique(strata))

    if options['lambda'] == 'tuned' and constant_within_strata(g):
        lam = 0.0
    elif options['lambda'] == 'tuned':
        v_minus, v_zero, v_plus = total_variance(-1.0), total_variance(0.0), total_variance(1.0)
        curvature = (v_plus + v_minus) / 2 - v_zero
        slope = (v_plus - v_minus) / 2
        lam = 0.0 if curvature <= 0 else min(1.0, max(0.0, -slope / (2 * curvature)))
        # The vertex from three evaluated points carries rounding: a judge whose B - A is the humans'
        # on every decided pair has lambda exactly 1, which the rectifier's test of variation needs.
        if abs(lam - round(lam)) < 1e-12:
            lam = float(round(lam))
    else:
        lam = float(options['lambda'])
    if constant_within_strata(d) or constant_within_strata(d - lam * g):
        return {'status': 'unsupported', 'reason': 'degenerate-variance', **counts}
    variance = total_variance(lam)
    classical_mean, classical_variance = hajek(pi, d, strata)
    classical_variance += spread
    point = lam * g_all.mean() + hajek(pi, d - lam * g, strata)[0]

    def bounded(centre, var, e):
        se = float(np.sqrt(var))
        q = critical(options['level'], degrees_of_freedom(pi, e, strata, spread))
        return {'estimate': float(centre), 'se': se, 'low': min(1.0, max(-1.0, centre - q * se)), 'high': min(1.0, max(-1.0, centre + q * se))}

    result = {
        'status': 'estimate',
        'lambda': float(lam),
        **counts,
        **bounded(point, variance, d - lam * g),
        'classical': bounded(classical_mean, classical_variance, d),
        'judgeOnly': {'a': float(fa.mean()), 'b': float(fb.mean()), 'difference': float(fb.mean() - fa.mean())},
        'discordant': int(sum(1 for s in decided if s[2] != s[3])),
        'effectiveReviews': effective_reviews(n, n_all, classical_variance, variance, options['estimand'] == 'system'),
        'worstCase': None,
    }
    if options['worstCase'] and counts['pending'] > 0:
        bounds = worst_case(sample, g_all, lam, options['estimand'] == 'system', options['level'])
        result['worstCase'] = {'low': min(bounds['low'], result['low']), 'high': max(bounds['high'], result['high'])}
    return result


def worst_case(sample, g_all, lam, system, level):
    """Bounds over every label of the pending sides: a pending side is 0 or 1, so B - A ranges over [b_low - a_high, b_high - a_low]."""
    pi = np.array([s[1] for s in sample])
    w = 1 / pi
    g = g_all[np.array([s[0] for s in sample])]
    a_low = np.array([0 if s[2] is None else s[2] for s in sample], dtype=float)
    a_high = np.array([1 if s[2] is None else s[2] for s in sample], dtype=float)
    b_low = np.array([0 if s[3] is None else s[3] for s in sample], dtype=float)
    b_high = np.array([1 if s[3] is None else s[3] for s in sample], dtype=float)
    low_labels, high_labels = b_low - a_high, b_high - a_low
    strata = np.array([s[4] or '' for s in sample])
    r_low = (w * (low_labels - lam * g)).sum() / w.sum()
    r_high = (w * (high_labels - lam * g)).sum() / w.sum()
    # A difference's spread is at most n/(n - 1) times (its range, 2)^2 / 4.
    spread_most = len(sample) / (len(sample) - 1) * 1.0 / len(g_all) if system else 0.0
    variance = spread_most
    # The least the degrees of freedom can be: each term's least (0 where its range holds 0), summed and
    # squared, over the most the squared terms can sum to.
    least, most_squared = 0.0, 2 * spread_most**2 / (len(sample) - 1)
    for name in np.unique(strata):
        chosen = strata == name
        k = chosen.sum()
        # z - its stratum's mean = (w e - mean(w e) - R (w - mean w)) / W, each part over its range.
        wk = w[chosen]
        own_low, own_high = wk * (low_labels - lam * g)[chosen], wk * (high_labels - lam * g)[chosen]
        centred = wk - wk.mean()
        below = (own_low - own_high.mean() - np.maximum(r_low * centred, r_high * centred)) / w.sum()
        above = (own_high - own_low.mean() - np.minimum(r_low * centred, r_high * centred)) / w.sum()
        ends = np.maximum(below**2, above**2)
        variance += k / (k - 1) * ((1 - pi[chosen]) * ends).sum()
        most_squared += k / (k - 1) * ((k / (k - 1) * (1 - pi[chosen]) * ends) ** 2).sum()
        nearest = np.where(below * above <= 0, 0.0, np.minimum(below**2, above**2))
        least += k / (k - 1) * ((1 - pi[chosen]) * nearest).sum()
    df = float('inf') if most_squared <= 0 else 2 * least**2 / most_squared
    spread = 0.0 if variance == 0 else (critical(level, df) * np.sqrt(variance) if df > 0 else float('inf'))
    centre = lam * g_all.mean()
    return {'low': float(min(1.0, max(-1.0, centre + r_low - spread))), 'high': float(min(1.0, max(-1.0, centre + r_high + spread)))}


def main():
    rng = random.Random(SEED)
    cases = []
    for index in range(400):
        case = draw_split(rng, index)
        cases.append({**case, 'sample': encode_sample(case['design'], case['sample']), 'expected': estimate(case)})
    header = {
        'generatedBy': 'test/reference/generate_ppi_paired.py',
        'scriptSha256': hashlib.sha256((HERE / 'generate_ppi_paired.py').read_bytes()).hexdigest(),
        'seed': SEED,
        'computedBy': f'NumPy {np.__version__}, SciPy {scipy.__version__}, Python {sys.version.split()[0]} statistics.NormalDist',
    }
    lines = ['{'] + [f'  {json.dumps(k)}: {json.dumps(v)},' for k, v in header.items()] + ['  "cases": [']
    lines += [f'    {json.dumps(c, allow_nan=False, separators=(",", ":"))}{"," if i < len(cases) - 1 else ""}' for i, c in enumerate(cases)]
    lines += ['  ]', '}']
    (HERE / 'ppi-paired-second-implementation.json').write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print('wrote test/reference/ppi-paired-second-implementation.json', file=sys.stderr)


if __name__ == '__main__':
    main()
