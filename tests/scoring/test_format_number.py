"""Numbers printed for people: values within 0.0005 of a whole number print as it ("0", never "-0"), and a unit
is singular exactly when the printed number is 1."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.methods import Combined, Placement, PointsPerDeal, TotalPoints, format_number, plural

# strictly closer than 0.0005 to the whole number, so no value is a rounding tie
NEAR = st.fractions(min_value=Fraction(-4999, 10_000_000), max_value=Fraction(4999, 10_000_000), max_denominator=10**7)


def test_a_small_negative_value_prints_as_zero_without_a_sign() -> None:
    assert format_number(Fraction(-1, 3000)) == "0"
    assert format_number(-1 / 3000) == "0"
    assert format_number(-0.0) == "0"
    assert TotalPoints().describe(Fraction(-1, 3000)) == "0 points"


def test_a_value_printed_as_one_takes_the_singular() -> None:
    assert plural(Fraction(10001, 10000), "point") == "1 point"
    assert TotalPoints().describe(Fraction(10001, 10000)) == "1 point"
    assert TotalPoints().describe(Fraction(9999, 10000)) == "1 point"
    assert PointsPerDeal().describe(Fraction(10001, 10000)) == "1 point per deal"
    assert Placement().describe(Fraction(19999, 20000)) == "1 placement point"
    assert Combined().describe((Fraction(10001, 10000), Fraction(-1, 3000))) == "1 placement point, 0 points"


def test_values_further_than_half_a_thousandth_from_a_whole_number_keep_their_decimals() -> None:
    assert format_number(Fraction(-6, 10000)) == "-0.001"
    assert format_number(Fraction(9994, 10000)) == "0.999"
    assert format_number(Fraction(-10006, 10000)) == "-1.001"
    assert TotalPoints().describe(Fraction(10006, 10000)) == "1.001 points"
    assert TotalPoints().describe(Fraction(-1)) == "-1 points"  # singular only for 1
    assert format_number(float("-inf")) == "none"


@settings(max_examples=300)
@given(st.integers(-(10**6), 10**6), NEAR)
def test_values_within_half_a_thousandth_of_a_whole_number_print_as_it(whole: int, offset: Fraction) -> None:
    value = whole + offset
    assert format_number(value) == str(whole)
    assert format_number(float(value)) == str(whole)
    assert plural(value, "point") == f"{whole} point{'' if whole == 1 else 's'}"
    assert plural(float(value), "point") == f"{whole} point{'' if whole == 1 else 's'}"


@settings(max_examples=300)
@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=100_000))
def test_no_value_prints_as_minus_zero_and_the_singular_goes_with_the_printed_one(value: Fraction) -> None:
    text = format_number(value)
    assert text != "-0" and not text.startswith("-0.000")
    assert abs(Fraction(text) - value) <= Fraction(1, 2000)
    assert plural(value, "deal") == f"{text} deal{'' if text == '1' else 's'}"
