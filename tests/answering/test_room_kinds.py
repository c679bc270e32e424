"""A word that says "which one" elsewhere ("a single day", "double time") names a kind of row
where the table's labels are kinds of that sort ("Standard Single", "Shared Twin"): "a double
room" is then a row the table does not have, said so, not a value of another room."""
from .row_helpers import named, table

ROOMS = table(["Room type", "The Harbourmaster Hotel", "Larkspur House"],
              [["Standard Single", "£68.40", "£61.25"], ["En-suite Single", "£79.60", "£72.15"],
               ["Shared Twin (per occupant)", "£47.35", "£41.00"], ["Family Room", "£99.00", "£90.00"]],
              caption="Table 2: Weekly accommodation charges by room type and property")
SHIFTS = table(["Shift type", "Premium"], [["Early", "10%"], ["Late", "15%"], ["Night", "25%"]],
               caption="Table 3: Shift premiums by shift type")


def test_a_double_room_is_a_kind_the_rooms_lack():
    assert named("weekly charge for a double room at the harbourmaster?", ROOMS)[:3] == ("absent", [], "double room")
    assert named("weekly charge for a twin room at the harbourmaster?", ROOMS)[:2] == ("label", ["Shared Twin (per occupant)"])


def test_elsewhere_such_a_word_names_no_kind():
    found = named("What premium do I get for a double shift?", SHIFTS)
    assert found is None or found[0] != "absent"
