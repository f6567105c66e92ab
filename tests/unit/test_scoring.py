import pytest

from nodes.analysis.scoring import grade_for, match_skills


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (100, "A"),
        (80, "A"),
        (79, "B"),
        (65, "B"),
        (64, "C"),
        (48, "C"),
        (47, "D"),
        (15, "D"),
        (14, "F"),
        (0, "F"),
    ],
)
def test_grade_boundaries(score, grade):
    assert grade_for(score) == grade


def test_required_coverage_weighs_three_quarters():
    # 2 of 4 required (0.5), 1 of 2 preferred (0.5) -> 50
    m = match_skills(
        ["Java", "MySQL", "Kafka"],
        [["Java"], ["MySQL"], ["Python"], ["AWS"]],
        [["Kafka"], ["Redis"]],
    )
    assert m.score == 50
    assert m.matched == ["Java", "MySQL"]
    assert m.bonus == ["Kafka"]
    assert m.missing == ["Python", "AWS", "Redis"]


def test_implied_skills_satisfy_requirements():
    m = match_skills(["Spring Boot"], [["Spring"]], [])
    assert m.score == 100 and m.matched == ["Spring"]


def test_implication_does_not_run_backwards():
    m = match_skills(["Spring"], [["Spring Boot"]], [])
    assert m.score == 0 and m.missing == ["Spring Boot"]


def test_posting_without_skills_is_flagged_not_scored():
    m = match_skills(["Java"], [], [])
    assert not m.scored_on_skills
    assert m.score == 50


def test_only_preferred_skills_score_on_preferred_coverage():
    m = match_skills(["Kafka"], [], [["Kafka"], ["Redis"], ["Docker"], ["AWS"]])
    assert m.score == 25


def test_alternatives_are_one_requirement_met_by_either():
    # "Kotlin 또는 Java" + "Spring": a Kotlin developer meets both requirements
    m = match_skills(["Kotlin", "Spring Boot"], [["Kotlin", "Java"], ["Spring"]], [])
    assert m.score == 100
    assert m.matched == ["Kotlin", "Spring"] and m.missing == []
    # an unmet alternative lists every option as missing
    m2 = match_skills(["Python"], [["Kotlin", "Java"], ["Python"]], [])
    assert m2.score == 50 and m2.missing == ["Kotlin", "Java"]
