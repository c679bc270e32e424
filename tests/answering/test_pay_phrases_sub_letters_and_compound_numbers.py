"""Seen in the blind run of holdout46 (a zoo): "the starting pay for a zk3a" was answered with the
"Pay points" column (a count of steps, named by "pay" and by a word of "starting point", which
the lexicon gives for "entry salary"); "grade six b" named both ZK6a and ZK6b; "twenty-five
years' service" was read as five years; "when I pass 25 years" fell in the "up to 25 years" row;
"How much is each night check at Wexcombe?" got the count of night checks, not the payment."""
from policypal.answering.quantities import told_quantities
from policypal.answering.terms import compound_numbers_in_digits

from .row_helpers import named, table

PAY = table(
    ["Grade", "Typical posts", "Entry salary", "Top-of-grade salary", "Pay points", "Basic hourly rate at entry"],
    [["ZK3a", "Keeper; aquarist", "£27,450", "£29,300", "4", "£14.08"],
     ["ZK3b", "Veterinary care assistant", "£28,200", "£30,150", "4", "£14.46"],
     ["ZK6a", "Curator", "£39,750", "£44,300", "5", "£20.38"],
     ["ZK6b", "Veterinary surgeon", "£43,800", "£49,650", "5", "£22.46"]],
)

SERVICE = table(
    ["Continuous service on 1 April", "Annual long service supplement", "One-off milestone payment on entering the band"],
    [["Less than 5 years", "Nil", "Nil"],
     ["5 years or more, up to 10 years", "£350", "£150"],
     ["Over 10 years, up to 25 years", "£900", "£400"],
     ["Over 25 years", "£1,250", "£750"]],
)

ALLOWANCES = table(
    ["Allowance", "Amount", "How paid"],
    [["Dive allowance", "£18.50 per qualifying dive", "Monthly in arrears, from the dive log"],
     ["First aid allowance", "£260 a year", "Monthly, with salary"]],
)

CHECKS = table(
    ["", "Harrowgate Park", "Wexcombe Aquarium"],
    [["Night checks each night", "3", "2"],
     ["Check times", "21:00, 00:30 and 04:30", "22:00 and 03:00"],
     ["Payment per check", "£27.50", "£31.00"]],
)


def test_a_phrase_the_lexicon_equates_names_its_column_before_words_of_other_phrases():
    assert named("what's the starting pay for a zk3a", PAY)[1:4:2] == (["ZK3a"], ["Entry salary"])
    assert named("zk3a entry salary", PAY)[3] == ["Entry salary"]
    assert named("how many pay points does a zk3a have", PAY)[3] == ["Pay points"]


def test_a_word_of_pay_names_no_column_of_counts():
    # "pay" asks for an amount: the "Pay points" column is named only by it and holds no money
    assert "Pay points" not in named("What's the ceiling of the pay band for a curator?", PAY)[3]


def test_a_word_of_pay_may_name_a_column_of_hours_asked_for():
    callouts = table(["Day", "Hours paid", "Rate"], [["Saturday", "4 hours", "£21.00"], ["Sunday", "5 hours", "£24.50"]])
    assert named("how many hours are paid for a Saturday callout?", callouts)[3] == ["Hours paid"]


def test_a_column_is_named_by_its_words_in_any_order():
    assert named("entry hourly rate for grade 6b", PAY)[3] == ["Basic hourly rate at entry"]


def test_a_spelt_number_and_a_letter_name_a_sub_lettered_code():
    assert named("entry hourly rate for grade six b", PAY)[1] == ["ZK6b"]
    assert named("what's the top salary for grade six a", PAY)[1] == ["ZK6a"]
    # a lone "a" inside a clause is an article: both grade 6 rows stay named
    assert named("is grade 6 a senior grade", PAY)[1] == ["ZK6a", "ZK6b"]


def test_a_number_of_two_words_is_one_number():
    assert compound_numbers_in_digits("I've done twenty-five years and thirty two days") == "I've done 25 years and 32 days"
    assert named("I've done twenty six years, what's my supplement?", SERVICE)[1] == ["Over 25 years"]
    assert told_quantities("I've been here twenty-five years") == told_quantities("I've been here 25 years") != []


def test_hundreds_and_thousands_in_words_are_their_number():
    assert compound_numbers_in_digits("about twelve thousand business miles") == "about 12000 business miles"
    assert compound_numbers_in_digits("two hundred miles, a thousand pounds") == "200 miles, 1000 pounds"
    # a number read on ("three hundred and fifty") is left whole rather than cut short
    assert compound_numbers_in_digits("three hundred and fifty miles") == "three hundred and fifty miles"
    mileage = table(["Business miles in the tax year", "Car or van", "Motorcycle"],
                    [["Up to 10,000 miles", "45p per mile", "24p per mile"], ["Over 10,000 miles", "25p per mile", "24p per mile"]])
    assert named("I've driven about twelve thousand business miles in my car this tax year. What rate now?", mileage)[1] == [
        "Over 10,000 miles"]


def test_passing_a_bound_is_beyond_it():
    assert named("What's the one-off payment when I pass twenty-five years' service?", SERVICE)[1:4:2] == (
        ["Over 25 years"], ["One-off milestone payment on entering the band"])
    assert named("I've got 25 years service, supplement?", SERVICE)[1] == ["Over 10 years, up to 25 years"]


def test_getting_paid_asks_for_the_amount_not_how_it_is_paid():
    # "paid" names no column of words ("How paid") when the question asks what is paid
    assert named("What do aquarists get paid for each dive they log?", ALLOWANCES)[1:4:2] == (["Dive allowance"], [])
    assert named("how is the dive allowance paid?", ALLOWANCES)[3] == ["How paid"]


def test_the_attribute_row_of_the_asked_kind_in_a_table_of_things_as_columns():
    assert named("How much is each night check at Wexcombe?", CHECKS)[1] == ["Payment per check"]
    assert named("payment per check at Wexcombe Aquarium", CHECKS)[1] == ["Payment per check"]


def test_a_label_named_by_a_shared_word_gives_way_to_the_one_holding_more_of_the_question():
    arrangements = table(
        ["", "Harrowgate Park", "Wexcombe Aquarium"],
        [["Night checks each night", "3", "2"],
         ["Check times", "21:00, 00:30 and 04:30", "22:00 and 03:00"],
         ["Payment per check", "£27.50", "£31.00"],
         ["Carried out by", "Duty keeper", "Duty life support technician"]],
    )
    # "check" names three labels; "night checks" names the one holding both words
    assert named("how many night checks at Wexcombe Aquarium", arrangements)[1] == ["Night checks each night"]
    assert named("check times at Wexcombe Aquarium", arrangements)[1] == ["Check times"]
    # a word reached through a place is not written: "London" is not "UK outside London"
    caps = table(["Location code", "Locations", "Hotel cap per night"],
                 [["L1", "UK outside London", "£110"], ["L2", "London", "£185"], ["L3", "Ireland, Belgium", "£160"]])
    assert named("How much can a hotel in London cost a night?", caps)[1] == ["L2"]
