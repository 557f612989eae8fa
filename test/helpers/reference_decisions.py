"""A second implementation of the criteria fixture's decision contract, for tests.

It follows the specification's published contract for a docuctl-style fixture (rubric.json,
source.txt, cases.json, annotations.json), independently of the TypeScript engine: every check the
contract makes raises ValueError, so a fixture it refuses can never look decided. It prints, as
JSON, {case id: {status, reason, ratings}} for the directory given as the first argument.
"""
import hashlib
import json
import sys
from pathlib import Path

RATING_WORDS = ('meets', 'does_not_meet', 'uncertain')
HEX = set('0123456789abcdef')


def canonical_sha256(value):
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(',', ':'))
    return hashlib.sha256(text.encode()).hexdigest()


def nonempty_text(value):
    return isinstance(value, str) and value != ''


def check_rubric(rubric, source):
    if not isinstance(rubric, dict) or sorted(rubric) != sorted(['id', 'version', 'task', 'acceptance', 'ratings', 'criteria']):
        raise ValueError('rubric keys')
    if type(rubric['version']) is not int or rubric['version'] < 1:
        raise ValueError('rubric version')
    for key in ('id', 'task', 'acceptance'):
        if not nonempty_text(rubric[key]):
            raise ValueError('rubric ' + key)
    ratings = rubric['ratings']
    if not isinstance(ratings, list) or not all(isinstance(word, str) for word in ratings) or set(ratings) != set(RATING_WORDS):
        raise ValueError('rubric ratings')
    if not isinstance(rubric['criteria'], list) or len(rubric['criteria']) == 0:
        raise ValueError('rubric criteria')
    by_id = {}
    for criterion in rubric['criteria']:
        if not isinstance(criterion, dict) or sorted(criterion) != ['id', 'reference_quote', 'rule']:
            raise ValueError('criterion keys')
        if not all(nonempty_text(criterion[key]) for key in ('id', 'rule', 'reference_quote')):
            raise ValueError('criterion text')
        if criterion['id'] in by_id or criterion['reference_quote'] not in source:
            raise ValueError('criterion id or quote')
        by_id[criterion['id']] = criterion
    return by_id


def check_expected(expected):
    if not isinstance(expected, dict) or sorted(expected) != sorted(['acceptable', 'source_sha256', 'rubric_sha256', 'review_sha256']):
        raise ValueError('expected keys')
    if expected['acceptable'] is not True:
        raise ValueError('expected acceptable')
    for key in ('source_sha256', 'rubric_sha256', 'review_sha256'):
        digest = expected[key]
        if not isinstance(digest, str) or len(digest) != 64 or not set(digest) <= HEX:
            raise ValueError('expected ' + key)


def decide(case, review, criteria, source_sha, rubric_sha):
    answer = case['input']['answer']
    if not isinstance(answer, dict) or sorted(answer) != ['citation', 'text'] or not all(nonempty_text(v) for v in answer.values()):
        raise ValueError('answer')
    expected = case['expected']
    if (expected['source_sha256'], expected['rubric_sha256']) != (source_sha, rubric_sha):
        raise ValueError('case revision')
    if expected['review_sha256'] != canonical_sha256(review):
        raise ValueError('review revision')
    if review is None:
        return {'status': 'pending', 'reason': 'no review', 'ratings': {}}
    if sorted(review) != sorted(['answer_id', 'answer_sha256', 'source_sha256', 'rubric_sha256', 'judgements']):
        raise ValueError('review keys')
    bound = (review['answer_id'], review['answer_sha256'], review['source_sha256'], review['rubric_sha256'])
    if bound != (case['id'], canonical_sha256(answer), source_sha, rubric_sha):
        raise ValueError('review binding')
    judgements = review['judgements']
    if not isinstance(judgements, dict) or any(key not in criteria for key in judgements):
        raise ValueError('judgement criterion')
    for key, judgement in judgements.items():
        if not isinstance(judgement, dict) or sorted(judgement) != ['answer_span', 'rating', 'reason', 'reference_quote']:
            raise ValueError('judgement keys')
        if judgement['rating'] not in RATING_WORDS or not nonempty_text(judgement['reason']):
            raise ValueError('judgement rating or reason')
        if judgement['reference_quote'] != criteria[key]['reference_quote']:
            raise ValueError('judgement quote')
        if not isinstance(judgement['answer_span'], str) or judgement['answer_span'] not in answer['text']:
            raise ValueError('judgement span')
    ratings = {key: judgement['rating'] for key, judgement in judgements.items()}
    if len(judgements) != len(criteria) or 'uncertain' in ratings.values():
        return {'status': 'pending', 'reason': 'incomplete or uncertain', 'ratings': ratings}
    failed = [key for key, rating in ratings.items() if rating == 'does_not_meet']
    return {'status': 'rejected' if failed else 'accepted', 'reason': ', '.join(failed), 'ratings': ratings}


def decide_fixture(directory):
    """{case id: {status, reason, ratings}} for a fixture directory; ValueError when it is refused."""
    root = Path(directory)
    rubric_bytes = (root / 'rubric.json').read_bytes()
    source_bytes = (root / 'source.txt').read_bytes()
    rubric = json.loads(rubric_bytes)
    source = source_bytes.decode('utf-8')
    criteria = check_rubric(rubric, source)
    cases = json.loads((root / 'cases.json').read_text('utf-8'))['cases']
    reviews = {}
    ids = set(case['id'] for case in cases)
    if len(ids) != len(cases):
        raise ValueError('duplicate case')
    for review in json.loads((root / 'annotations.json').read_text('utf-8'))['reviews']:
        if review['answer_id'] not in ids or review['answer_id'] in reviews:
            raise ValueError('review identity')
        reviews[review['answer_id']] = review
    source_sha = hashlib.sha256(source_bytes).hexdigest()
    rubric_sha = hashlib.sha256(rubric_bytes).hexdigest()
    decisions = {}
    for case in cases:
        check_expected(case['expected'])
        if sorted(case['input']) != ['answer', 'question'] or case['input']['question'] != rubric['task']:
            raise ValueError('question')
        decisions[case['id']] = decide(case, reviews.get(case['id']), criteria, source_sha, rubric_sha)
    return decisions


if __name__ == '__main__':
    json.dump(decide_fixture(sys.argv[1]), sys.stdout)
