#!/usr/bin/env python3
"""Regenerates test/reference/ppi-second-implementation.json, the values ppiMean is compared with.

A second implementation of the prediction-powered estimate of a rate (docs/statistics.md,
"Prediction-powered estimate of a rate"), written from the papers and the definitions on that
page, not from the TypeScript: NumPy arrays, the power-tuning parameter found as the vertex of the
variance's parabola in λ (evaluated at λ = -1, 0, 1) rather than from its closed form, and the
variance computed from the rectifier's residuals rather than from the moments of Y and f, the
interval's quantile Student's t (SciPy) at Satterthwaite's degrees of freedom of that variance.

The inputs are drawn from a fixed seed: hundreds of splits, uniform, stratified and active
(Poisson) designs, hard and soft judge labels, pending cases, fixed and tuned λ, and the refusals
(missing judge labels, too few reviews, too few of one label, a stratum too small, a judge that
never varies).

Run it with a python3 that has NumPy and SciPy (the pyenv python3 on PATH here):

    python3 test/reference/generate_ppi.py

The file records this script's SHA-256; the tests fail until it is run after an edit of it.
"""

import hashlib
import json
import random
import sys
from pathlib import Path

import numpy as np
import scipy
from scipy.special import ndtri
from scipy.stats import t as student_t

SEED = 37
HERE = Path(__file__).resolve().parent
MIN_REVIEWS = 30
MIN_PER_LABEL = 5


def encode_judge(values):
    # Quarter steps, one character each; 'x' where the judge gave no label.
    return ''.join('x' if v is None else str(int(round(v * 4))) for v in values)


def encode_sample(design, sample):
    # Columns rather than rows keep the file small: the indexes, the labels as a string ('p' for
    # pending), the probabilities as one number (uniform), one per stratum (stratified, whose
    # strata are a string of initials) or one per case (active).
    encoded = {'index': [s[0] for s in sample], 'human': ''.join('p' if s[2] is None else str(s[2]) for s in sample)}
    if design == 'uniform':
        encoded['probability'] = sample[0][1] if sample else 1
    elif design == 'stratified':
        encoded['probability'] = {s[3][0]: s[1] for s in sample}
        encoded['stratum'] = ''.join(s[3][0] for s in sample)
    else:
        encoded['probability'] = [s[1] for s in sample]
    return encoded


def draw_split(rng, index):
    n_cases = rng.choice([40, 120, 400, 1000, 2000])
    rate = rng.uniform(0.05, 0.95)
    truth = [1 if rng.random() < rate else 0 for _ in range(n_cases)]
    quality = rng.choice(['perfect', 'good', 'fair', 'poor', 'biased', 'soft', 'constant'])
    judge = []
    for y in truth:
        if quality == 'constant':
            judge.append(1.0)
        elif quality == 'soft':
            judge.append(min(4, max(0, 2 + (1 if y else -1) * rng.randrange(3) + rng.choice([-1, 0, 0, 1]))) / 4)
        elif quality == 'biased':
            judge.append(1.0 if y or rng.random() < 0.3 else 0.0)
        else:
            flip = {'perfect': 0, 'good': 0.05, 'fair': 0.2, 'poor': 0.4}[quality]
            judge.append(float(1 - y if rng.random() < flip else y))
    if index % 29 == 0:
        for i in rng.sample(range(n_cases), 1 + rng.randrange(3)):
            judge[i] = None
    design = 'stratified' if index % 23 == 0 else rng.choice(['uniform', 'uniform', 'stratified', 'active'])
    size = min(n_cases, rng.choice([12, 35, 60, 150, 300]))
    sample = []
    if design == 'uniform':
        for i in rng.sample(range(n_cases), size):
            sample.append([i, size / n_cases, truth[i], None])
    elif design == 'stratified':
        strata = {}
        for i in range(n_cases):
            strata.setdefault('accept' if (judge[i] or 0) >= 0.5 else 'reject', []).append(i)
        for name, members in strata.items():
            # Every 23rd split gives one stratum a single draw: a stratum too small for its variance.
            take = 1 if index % 23 == 0 and name == 'reject' else min(len(members), max(1, round(size * len(members) / n_cases)))
            for i in rng.sample(members, take):
                sample.append([i, take / len(members), truth[i], name])
    else:
        score = [rng.random() for _ in range(n_cases)]
        uncertainty = [0.1 + min(s, 1 - s) for s in score]
        total = sum(uncertainty)
        for i in range(n_cases):
            # Six decimals, as a design file would record them, keep the reference file small.
            probability = min(1.0, round(size * (0.3 / n_cases + 0.7 * uncertainty[i] / total), 6))
            if rng.random() < probability:
                sample.append([i, probability, truth[i], None])
    if rng.random() < 0.3:
        for drawn in sample:
            if rng.random() < 0.2:
                drawn[2] = None
    rng.shuffle(sample)
    lam = rng.random()
    options = {
        'level': rng.choice([0.8, 0.9, 0.95, 0.99]),
        'lambda': rng.choice(['tuned', 'tuned', 'tuned', 1, round(lam, 3)]),
        'worstCase': rng.random() < 0.85,
        'estimand': rng.choice(['split', 'split', 'system']),
    }
    return {'design': design, 'judge': encode_judge(judge), 'sample': sample, 'options': options}, encode_sample(design, sample)


def rectifier_variance(pi, e, strata):
    """Hájek mean of e with weights 1/π, and its design variance: with-replacement within strata, each unit's term times 1 - π."""
    w = 1 / pi
    total = w.sum()
    mean = (w * e).sum() / total
    u = w * (e - mean) / total
    variance = 0.0
    for name in np.unique(strata):
        chosen = strata == name
        part = u[chosen]
        variance += len(part) / (len(part) - 1) * ((1 - pi[chosen]) * (part - part.mean()) ** 2).sum()
    return mean, variance


def satterthwaite(pi, e, strata, spread):
    """Degrees of freedom 2v² / var(v) of v = spread + Σ terms, each unit's term of the design variance of the
    Hájek mean of e; var(v) is n_h times the sample variance of the terms within each stratum, plus 2·spread²/(n - 1)."""
    w = 1 / pi
    u = w * (e - (w * e).sum() / w.sum()) / w.sum()
    v, var_v = spread, 2 * spread**2 / (len(e) - 1)
    for name in np.unique(strata):
        chosen = strata == name
        k = chosen.sum()
        terms = k / (k - 1) * (1 - pi[chosen]) * (u[chosen] - u[chosen].mean()) ** 2
        v += terms.sum()
        var_v += k * np.var(terms, ddof=1)
    return np.inf if var_v <= 0 else 2 * v**2 / var_v


def quantile(level, df):
    return float(ndtri((1 + level) / 2)) if np.isinf(df) else float(student_t.ppf((1 + level) / 2, df))



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
    judge_text, sample, options = case['judge'], case['sample'], case['options']
    counts = {'cases': len(judge_text), 'sampled': len(sample)}
    decided = [s for s in sample if s[2] is not None]
    counts['decided'] = len(decided)
    counts['pending'] = len(sample) - len(decided)
    if 'x' in judge_text:
        return {'status': 'unsupported', 'reason': 'judge-missing', **counts}
    if len(decided) < MIN_REVIEWS:
        return {'status': 'unsupported', 'reason': 'too-few-reviews', **counts}
    ones = sum(s[2] for s in decided)
    if min(ones, len(decided) - ones) < MIN_PER_LABEL:
        return {'status': 'unsupported', 'reason': 'too-few-per-label', **counts}
    for name in {s[3] for s in sample}:
        if sum(1 for s in decided if s[3] == name) < 2:
            return {'status': 'unsupported', 'reason': 'stratum-too-small', **counts}
    f_all = np.array([int(c) / 4 for c in judge_text])
    n_all = len(f_all)
    index = np.array([s[0] for s in decided])
    pi = np.array([s[1] for s in decided])
    w = 1 / pi
    y = np.array([s[2] for s in decided], dtype=float)
    f = f_all[index]
    strata = np.array([s[3] or '' for s in decided])

    n = len(decided)
    # For the system's rate, the spread of a rate over N cases, s²_Y / N, with s²_Y weighted.
    spread = 0.0
    if options['estimand'] == 'system':
        y_bar = (w * y).sum() / w.sum()
        spread = n / (n - 1) * (w * (y - y_bar) ** 2).sum() / w.sum() / n_all

    def total_variance(lam):
        return spread + rectifier_variance(pi, y - lam * f, strata)[1]

    def constant_within_strata(values):
        return all(len(np.unique(values[strata == name])) == 1 for name in np.unique(strata))

    if options['lambda'] == 'tuned' and constant_within_strata(f):
        # A judge constant within every stratum tells the design nothing: λ = 0.
        lam = 0.0
    elif options['lambda'] == 'tuned':
        v_minus, v_zero, v_plus = total_variance(-1.0), total_variance(0.0), total_variance(1.0)
        curvature = (v_plus + v_minus) / 2 - v_zero
        slope = (v_plus - v_minus) / 2
        lam = 0.0 if curvature <= 0 else min(1.0, max(0.0, -slope / (2 * curvature)))
    else:
        lam = float(options['lambda'])
    variance = total_variance(lam)
    classical_mean, classical_variance = rectifier_variance(pi, y, strata)
    classical_variance += spread
    # Degenerate when the labels themselves do not vary within any stratum (the computed variance
    # is then a rounding residue, not 0).
    if constant_within_strata(y) or constant_within_strata(y - lam * f):
        return {'status': 'unsupported', 'reason': 'degenerate-variance', **counts}
    point = lam * f_all.mean() + rectifier_variance(pi, y - lam * f, strata)[0]

    def bounded(centre, var, e):
        # Student's t at Satterthwaite's degrees of freedom of the variance.
        se = float(np.sqrt(var))
        q = quantile(options['level'], satterthwaite(pi, e, strata, spread))
        return {'estimate': float(centre), 'se': se, 'low': min(1.0, max(0.0, centre - q * se)), 'high': min(1.0, max(0.0, centre + q * se))}

    result = {
        'status': 'estimate',
        'lambda': float(lam),
        **counts,
        **bounded(point, variance, y - lam * f),
        'classical': bounded(classical_mean, classical_variance, y),
        'judgeOnly': float(f_all.mean()),
        'effectiveReviews': effective_reviews(n, n_all, classical_variance, variance, options['estimand'] == 'system'),
        'worstCase': None,
    }
    if options['worstCase'] and counts['pending'] > 0:
        bounds = worst_case(sample, f_all, lam, options['estimand'] == 'system', options['level'])
        # The worst case holds the decided cases' own interval too.
        result['worstCase'] = {'low': min(bounds['low'], result['low']), 'high': max(bounds['high'], result['high'])}
    return result


def worst_case(sample, f_all, lam, system, level):
    pi = np.array([s[1] for s in sample])
    w = 1 / pi
    f = f_all[np.array([s[0] for s in sample])]
    pending = np.array([s[2] is None for s in sample])
    y = np.array([0 if s[2] is None else s[2] for s in sample], dtype=float)
    strata = np.array([s[3] or '' for s in sample])
    low_labels = np.where(pending, 0.0, y)
    high_labels = np.where(pending, 1.0, y)
    r_low = (w * (low_labels - lam * f)).sum() / w.sum()
    r_high = (w * (high_labels - lam * f)).sum() / w.sum()
    # z - (stratum mean of z) = (w e - mean(w e) - R (w - mean w)) / W: the unit's own term, the stratum's
    # mean of w e and R each over their ranges, on their own.
    e_low = low_labels - lam * f
    e_high = high_labels - lam * f
    spread_high = len(sample) / (len(sample) - 1) / 4 / len(f_all) if system else 0.0
    variance = spread_high
    # The degrees of freedom at their least: the least the terms can sum to, squared, over the most
    # their squares can sum to.
    least_sum, most_squares = 0.0, 2 * spread_high**2 / (len(sample) - 1)
    for name in np.unique(strata):
        chosen = strata == name
        k = chosen.sum()
        wc = w[chosen]
        shift = np.stack([r_low * (wc - wc.mean()), r_high * (wc - wc.mean())])
        lo = (wc * e_low[chosen] - (wc * e_high[chosen]).mean() - shift.max(axis=0)) / w.sum()
        hi = (wc * e_high[chosen] - (wc * e_low[chosen]).mean() - shift.min(axis=0)) / w.sum()
        most = k / (k - 1) * (1 - pi[chosen]) * np.maximum(lo**2, hi**2)
        least = np.where((lo <= 0) & (hi >= 0), 0.0, k / (k - 1) * (1 - pi[chosen]) * np.minimum(lo**2, hi**2))
        variance += most.sum()
        least_sum += least.sum()
        most_squares += k / (k - 1) * (most**2).sum()
    df = np.inf if most_squares <= 0 else 2 * least_sum**2 / most_squares
    spread = 0.0 if variance == 0 else (quantile(level, df) * np.sqrt(variance) if df > 0 else np.inf)
    centre = lam * f_all.mean()
    return {'low': float(min(1.0, max(0.0, centre + r_low - spread))), 'high': float(min(1.0, max(0.0, centre + r_high + spread)))}


def main():
    rng = random.Random(SEED)
    cases = []
    for index in range(400):
        case, encoded = draw_split(rng, index)
        cases.append({**case, 'sample': encoded, 'expected': estimate(case)})
    header = {
        'generatedBy': 'test/reference/generate_ppi.py',
        'scriptSha256': hashlib.sha256((HERE / 'generate_ppi.py').read_bytes()).hexdigest(),
        'seed': SEED,
        'computedBy': f'NumPy {np.__version__}, SciPy {scipy.__version__}',
    }
    lines = ['{'] + [f'  {json.dumps(k)}: {json.dumps(v)},' for k, v in header.items()] + ['  "cases": [']
    lines += [f'    {json.dumps(c, allow_nan=False, separators=(",", ":"))}{"," if i < len(cases) - 1 else ""}' for i, c in enumerate(cases)]
    lines += ['  ]', '}']
    (HERE / 'ppi-second-implementation.json').write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print('wrote test/reference/ppi-second-implementation.json', file=sys.stderr)


if __name__ == '__main__':
    main()
