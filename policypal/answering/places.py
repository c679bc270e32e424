"""Where places are: countries (their other names, region and capital) and large cities.

Travel and expense tables are keyed by country, region or "capital / other cities", while
employees ask about the city they are going to ("a hotel in Lyon", "B20 staying in
Manchester"). This is general world knowledge, bundled because nothing is downloaded at run
time; it is not the wording of any policy.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# country: (other names, region, capital)
_COUNTRIES: dict[str, tuple[tuple[str, ...], str, str]] = {
    "United Kingdom": (("UK", "U.K.", "Britain", "Great Britain", "England", "Scotland", "Wales", "Northern Ireland"), "Europe", "London"),
    "Ireland": (("Republic of Ireland", "Eire"), "Europe", "Dublin"),
    "France": ((), "Europe", "Paris"),
    "Germany": ((), "Europe", "Berlin"),
    "Netherlands": (("Holland", "The Netherlands"), "Europe", "Amsterdam"),
    "Belgium": ((), "Europe", "Brussels"),
    "Luxembourg": ((), "Europe", "Luxembourg"),
    "Spain": ((), "Europe", "Madrid"),
    "Portugal": ((), "Europe", "Lisbon"),
    "Italy": ((), "Europe", "Rome"),
    "Switzerland": ((), "Europe", "Bern"),
    "Austria": ((), "Europe", "Vienna"),
    "Denmark": ((), "Europe", "Copenhagen"),
    "Norway": ((), "Europe", "Oslo"),
    "Sweden": ((), "Europe", "Stockholm"),
    "Finland": ((), "Europe", "Helsinki"),
    "Iceland": ((), "Europe", "Reykjavik"),
    "Poland": ((), "Europe", "Warsaw"),
    "Czech Republic": (("Czechia",), "Europe", "Prague"),
    "Hungary": ((), "Europe", "Budapest"),
    "Romania": ((), "Europe", "Bucharest"),
    "Greece": ((), "Europe", "Athens"),
    "Croatia": ((), "Europe", "Zagreb"),
    "Bulgaria": ((), "Europe", "Sofia"),
    "Cyprus": ((), "Europe", "Nicosia"),
    "Malta": ((), "Europe", "Valletta"),
    "Estonia": ((), "Europe", "Tallinn"),
    "Latvia": ((), "Europe", "Riga"),
    "Lithuania": ((), "Europe", "Vilnius"),
    "Slovakia": ((), "Europe", "Bratislava"),
    "Slovenia": ((), "Europe", "Ljubljana"),
    "Serbia": ((), "Europe", "Belgrade"),
    "Turkey": (("Türkiye",), "Europe", "Ankara"),
    "Ukraine": ((), "Europe", "Kyiv"),
    "Russia": ((), "Europe", "Moscow"),
    "United States": (("US", "U.S.", "USA", "U.S.A.", "America", "United States of America"), "North America", "Washington"),
    "Canada": ((), "North America", "Ottawa"),
    "Mexico": ((), "North America", "Mexico City"),
    "Brazil": ((), "South America", "Brasilia"),
    "Argentina": ((), "South America", "Buenos Aires"),
    "Chile": ((), "South America", "Santiago"),
    "Colombia": ((), "South America", "Bogota"),
    "Peru": ((), "South America", "Lima"),
    "India": ((), "Asia", "New Delhi"),
    "China": (("PRC",), "Asia", "Beijing"),
    "Hong Kong": ((), "Asia", "Hong Kong"),
    "Japan": ((), "Asia", "Tokyo"),
    "South Korea": (("Korea",), "Asia", "Seoul"),
    "Singapore": ((), "Asia", "Singapore"),
    "Malaysia": ((), "Asia", "Kuala Lumpur"),
    "Thailand": ((), "Asia", "Bangkok"),
    "Vietnam": (("Viet Nam",), "Asia", "Hanoi"),
    "Indonesia": ((), "Asia", "Jakarta"),
    "Philippines": ((), "Asia", "Manila"),
    "Pakistan": ((), "Asia", "Islamabad"),
    "Bangladesh": ((), "Asia", "Dhaka"),
    "Sri Lanka": ((), "Asia", "Colombo"),
    "Nepal": ((), "Asia", "Kathmandu"),
    "United Arab Emirates": (("UAE", "U.A.E.", "Emirates"), "Middle East", "Abu Dhabi"),
    "Saudi Arabia": (("KSA",), "Middle East", "Riyadh"),
    "Qatar": ((), "Middle East", "Doha"),
    "Israel": ((), "Middle East", "Jerusalem"),
    "Egypt": ((), "Africa", "Cairo"),
    "South Africa": ((), "Africa", "Pretoria"),
    "Nigeria": ((), "Africa", "Abuja"),
    "Kenya": ((), "Africa", "Nairobi"),
    "Morocco": ((), "Africa", "Rabat"),
    "Ghana": ((), "Africa", "Accra"),
    "Australia": ((), "Oceania", "Canberra"),
    "New Zealand": (("NZ",), "Oceania", "Wellington"),
}

# large cities that are not capitals: city -> country
_CITIES: dict[str, str] = {
    "Manchester": "United Kingdom", "Birmingham": "United Kingdom", "Leeds": "United Kingdom",
    "Glasgow": "United Kingdom", "Edinburgh": "United Kingdom", "Liverpool": "United Kingdom",
    "Bristol": "United Kingdom", "Cardiff": "United Kingdom", "Belfast": "United Kingdom",
    "Newcastle": "United Kingdom", "Sheffield": "United Kingdom", "Nottingham": "United Kingdom",
    "Cambridge": "United Kingdom", "Oxford": "United Kingdom", "Reading": "United Kingdom",
    "Cork": "Ireland", "Galway": "Ireland", "Limerick": "Ireland",
    "Lyon": "France", "Marseille": "France", "Toulouse": "France", "Nice": "France", "Bordeaux": "France", "Lille": "France",
    "Munich": "Germany", "Hamburg": "Germany", "Frankfurt": "Germany", "Cologne": "Germany", "Stuttgart": "Germany",
    "Dusseldorf": "Germany", "Düsseldorf": "Germany", "Leipzig": "Germany",
    "Rotterdam": "Netherlands", "The Hague": "Netherlands", "Utrecht": "Netherlands", "Eindhoven": "Netherlands",
    "Antwerp": "Belgium", "Ghent": "Belgium",
    "Barcelona": "Spain", "Valencia": "Spain", "Seville": "Spain", "Bilbao": "Spain",
    "Porto": "Portugal", "Milan": "Italy", "Turin": "Italy", "Naples": "Italy", "Florence": "Italy", "Venice": "Italy",
    "Zurich": "Switzerland", "Geneva": "Switzerland", "Basel": "Switzerland", "Salzburg": "Austria",
    "Gothenburg": "Sweden", "Malmo": "Sweden", "Aarhus": "Denmark", "Bergen": "Norway",
    "Krakow": "Poland", "Wroclaw": "Poland", "Gdansk": "Poland", "Istanbul": "Turkey", "St Petersburg": "Russia",
    "New York": "United States", "New York City": "United States", "NYC": "United States", "San Francisco": "United States",
    "Los Angeles": "United States", "Chicago": "United States", "Boston": "United States", "Seattle": "United States",
    "Austin": "United States", "Dallas": "United States", "Houston": "United States", "Miami": "United States",
    "Atlanta": "United States", "Denver": "United States", "Philadelphia": "United States", "San Diego": "United States",
    "San Jose": "United States", "Las Vegas": "United States", "Phoenix": "United States",
    "Toronto": "Canada", "Vancouver": "Canada", "Montreal": "Canada", "Calgary": "Canada",
    "Guadalajara": "Mexico", "Monterrey": "Mexico",
    "Sao Paulo": "Brazil", "São Paulo": "Brazil", "Rio de Janeiro": "Brazil", "Rio": "Brazil",
    "Mumbai": "India", "Bombay": "India", "Delhi": "India", "Bengaluru": "India", "Bangalore": "India",
    "Chennai": "India", "Hyderabad": "India", "Pune": "India", "Kolkata": "India", "Ahmedabad": "India",
    "Jaipur": "India", "Kochi": "India", "Lucknow": "India", "Gurugram": "India", "Gurgaon": "India", "Noida": "India",
    "Shanghai": "China", "Shenzhen": "China", "Guangzhou": "China", "Chengdu": "China",
    "Osaka": "Japan", "Kyoto": "Japan", "Yokohama": "Japan", "Nagoya": "Japan", "Fukuoka": "Japan",
    "Busan": "South Korea", "Penang": "Malaysia", "Ho Chi Minh City": "Vietnam", "Cebu": "Philippines",
    "Karachi": "Pakistan", "Lahore": "Pakistan",
    "Dubai": "United Arab Emirates", "Sharjah": "United Arab Emirates", "Jeddah": "Saudi Arabia", "Tel Aviv": "Israel",
    "Johannesburg": "South Africa", "Cape Town": "South Africa", "Durban": "South Africa",
    "Lagos": "Nigeria", "Mombasa": "Kenya", "Casablanca": "Morocco", "Alexandria": "Egypt",
    "Sydney": "Australia", "Melbourne": "Australia", "Brisbane": "Australia", "Perth": "Australia",
    "Adelaide": "Australia", "Auckland": "New Zealand", "Christchurch": "New Zealand",
    "Aberdeen": "United Kingdom", "Dundee": "United Kingdom", "Inverness": "United Kingdom", "Southampton": "United Kingdom",
    "Leicester": "United Kingdom", "Coventry": "United Kingdom", "Brighton": "United Kingdom", "Swansea": "United Kingdom",
    "York": "United Kingdom", "Norwich": "United Kingdom", "Plymouth": "United Kingdom", "Bradford": "United Kingdom",
    "Milton Keynes": "United Kingdom", "Portsmouth": "United Kingdom", "Exeter": "United Kingdom",
    "Waterford": "Ireland", "Killarney": "Ireland", "Drogheda": "Ireland", "Dundalk": "Ireland", "Kilkenny": "Ireland",
    "Nantes": "France", "Strasbourg": "France", "Montpellier": "France", "Rennes": "France",
    "Dresden": "Germany", "Hanover": "Germany", "Hannover": "Germany", "Nuremberg": "Germany", "Nürnberg": "Germany",
    "Bremen": "Germany", "Essen": "Germany", "Dortmund": "Germany", "Bonn": "Germany", "Mannheim": "Germany",
    "Groningen": "Netherlands", "Tilburg": "Netherlands", "Almere": "Netherlands", "Breda": "Netherlands",
    "Nijmegen": "Netherlands", "Arnhem": "Netherlands", "Haarlem": "Netherlands", "Maastricht": "Netherlands",
    "Leiden": "Netherlands", "Delft": "Netherlands", "Zwolle": "Netherlands",
    "Poznan": "Poland", "Poznań": "Poland", "Lodz": "Poland", "Łódź": "Poland", "Katowice": "Poland", "Szczecin": "Poland",
    "Lublin": "Poland", "Bydgoszcz": "Poland", "Kraków": "Poland", "Wrocław": "Poland", "Gdańsk": "Poland",
    "Malaga": "Spain", "Zaragoza": "Spain", "Bologna": "Italy", "Genoa": "Italy", "Palermo": "Italy",
    "Braga": "Portugal", "Coimbra": "Portugal", "Faro": "Portugal",
    "Edmonton": "Canada", "Winnipeg": "Canada", "Quebec City": "Canada", "Halifax": "Canada",
}

# the name a table writes for a city the asker may shorten ("NYC" is New York)
_CITY_NAMES = {"nyc": "New York", "new york city": "New York", "la": "Los Angeles", "sf": "San Francisco"}

# the groups of countries tables name beside the continents ("Sub-Saharan Africa", "Gulf states",
# "Nordic countries"): general geography, as the regions are
_GROUP_MEMBERS: dict[str, tuple[str, ...]] = {
    "Nordic countries|Nordics": ("Denmark", "Norway", "Sweden", "Finland", "Iceland"),
    "Scandinavia": ("Denmark", "Norway", "Sweden"),
    "Benelux": ("Belgium", "Netherlands", "Luxembourg"),
    "Southern Europe": ("Spain", "Portugal", "Italy", "Greece", "Croatia", "Turkey"),
    "Eastern Europe": ("Poland", "Czech Republic", "Hungary", "Romania", "Ukraine", "Russia"),
    "Gulf states|Gulf|GCC": ("United Arab Emirates", "Saudi Arabia", "Qatar"),
    "Sub-Saharan Africa": ("South Africa", "Nigeria", "Kenya", "Ghana"),
    "East Africa": ("Kenya",),
    "West Africa": ("Nigeria", "Ghana"),
    "North Africa": ("Egypt", "Morocco"),
    "South Asia": ("India", "Pakistan", "Bangladesh", "Sri Lanka", "Nepal"),
    "South East Asia|Southeast Asia": ("Singapore", "Malaysia", "Thailand", "Vietnam", "Indonesia", "Philippines"),
    "Latin America": ("Mexico", "Brazil", "Argentina", "Chile", "Colombia", "Peru"),
}


def _groups_by_country() -> dict[str, tuple[str, ...]]:
    """country -> the names of every group it belongs to."""
    out: dict[str, tuple[str, ...]] = {}
    for names, members in _GROUP_MEMBERS.items():
        for country in members:
            out[country] = (*out.get(country, ()), *names.split("|"))
    return out


_GROUPS = _groups_by_country()

# members of the European Union: tables split Europe into "EU" and the rest ("UK | EU | Rest of world")
_EU_MEMBERS = frozenset({
    "Austria", "Belgium", "Bulgaria", "Croatia", "Cyprus", "Czech Republic", "Denmark", "Estonia", "Finland", "France",
    "Germany", "Greece", "Hungary", "Ireland", "Italy", "Latvia", "Lithuania", "Luxembourg", "Malta", "Netherlands",
    "Poland", "Portugal", "Romania", "Slovakia", "Slovenia", "Spain", "Sweden",
})
_EU_NAMES = ("EU", "European Union")
# the wider regions tables group countries in: Asia and Oceania are "Asia-Pacific"
_WIDER_REGIONS = {"Asia": ("Asia-Pacific", "Asia Pacific", "APAC"), "Oceania": ("Asia-Pacific", "Asia Pacific", "APAC")}

REGIONS = ("Europe", "North America", "South America", "Asia", "Middle East", "Africa", "Oceania")

# the nation of a United Kingdom city: tables split the UK by nation ("Rest of England", "Rest of
# Scotland"), and a city in one is in none of the others
_UK_NATIONS = ("England", "Scotland", "Wales", "Northern Ireland")
_UK_NATION_OF: dict[str, str] = {
    **{c: "England" for c in ("London", "Manchester", "Birmingham", "Leeds", "Liverpool", "Bristol", "Newcastle",
                              "Sheffield", "Nottingham", "Cambridge", "Oxford", "Reading", "Southampton", "Leicester",
                              "Coventry", "Brighton", "York", "Norwich", "Plymouth", "Bradford", "Milton Keynes",
                              "Portsmouth", "Exeter")},
    **{c: "Scotland" for c in ("Edinburgh", "Glasgow", "Aberdeen", "Dundee", "Inverness")},
    **{c: "Wales" for c in ("Cardiff", "Swansea")},
    "Belfast": "Northern Ireland",
}


@dataclass(frozen=True)
class Place:
    written: str  # as the question writes it
    country: str
    region: str
    capital: bool  # a country's capital city
    city: bool  # a city (not a country name)
    home: bool = False  # where the asker is based ("based in London", "UK payroll"), not where they go

    @property
    def names(self) -> tuple[str, ...]:
        """The names a table may use for it: country, its other names, region (a city of the
        United Kingdom: its own nation only, or none when it is not known)."""
        aliases = _COUNTRIES[self.country][0]
        nation = next((n for n in _UK_NATIONS if n.lower() == self.written.lower()), None)
        if self.country == "United Kingdom" and (self.city or nation):
            nation = nation or _UK_NATION_OF.get(_CANONICAL.get(self.written.lower(), self.written))
            aliases = tuple(a for a in aliases if a not in _UK_NATIONS or a == nation)
        union = _EU_NAMES if self.country in _EU_MEMBERS else ()
        city = (_CITY_NAMES[self.written.lower()],) if self.written.lower() in _CITY_NAMES else ()
        return (*city, self.country, *aliases, *union, *_GROUPS.get(self.country, ()), *_WIDER_REGIONS.get(self.region, ()),
                self.region)


_CANONICAL = {c.lower(): c for c in (*_UK_NATION_OF,)}


def uk_nation(place: Place) -> str | None:
    """The nation of the United Kingdom a place is (England) or is in (Cardiff: Wales); None
    elsewhere, or when it is not known (a smaller town, "the UK")."""
    if place.country != "United Kingdom":
        return None
    written = place.written
    return next((n for n in _UK_NATIONS if n.lower() == written.lower()), None) \
        or _UK_NATION_OF.get(_CANONICAL.get(written.lower(), written))


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[str, bool, bool]]:
    """lower-case name -> (country, is capital, is city)."""
    out: dict[str, tuple[str, bool, bool]] = {}
    for city, country in _CITIES.items():
        out[city.lower()] = (country, False, True)
    for country, (aliases, _, capital) in _COUNTRIES.items():
        out[capital.lower()] = (country, True, True)
        out[country.lower()] = (country, False, False)
        for alias in aliases:
            out[alias.lower()] = (country, False, False)
    return out


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern:
    names = sorted(_index(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE)


_HOME_BEFORE = re.compile(r"(?:based in|based at|work(?:ing)? (?:in|out of|from)|live in|from|i'm in|i am in)\s+(?:the\s+)?$", re.IGNORECASE)
_HOME_AFTER = re.compile(r"^[\s-]*(?:payroll|staff|employees?|based|contract|entity)\b", re.IGNORECASE)
_AMBIGUOUS = {"us", "nice", "reading", "rio", "nz", "america", "korea", "eire", "uk"}


def written_as_home(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is written as where the asker is based or comes from ("based in
    London", "from Antwerp", "UK payroll"), not where they go."""
    return bool(_HOME_BEFORE.search(text[:start])) or bool(_HOME_AFTER.match(text[end:]))


# the adjective of a country, for "the Polish entity", "our German office": read as the country
# only before a word naming an employer's part or its people, and written with its capital
_DEMONYMS = {
    "Argentine": "Argentina", "Argentinian": "Argentina", "Australian": "Australia", "Austrian": "Austria",
    "Bangladeshi": "Bangladesh", "Belgian": "Belgium", "Brazilian": "Brazil", "British": "United Kingdom",
    "Canadian": "Canada", "Chilean": "Chile", "Chinese": "China", "Colombian": "Colombia", "Croatian": "Croatia",
    "Czech": "Czech Republic", "Danish": "Denmark", "Egyptian": "Egypt", "Finnish": "Finland", "French": "France",
    "German": "Germany", "Ghanaian": "Ghana", "Greek": "Greece", "Hungarian": "Hungary", "Icelandic": "Iceland",
    "Indian": "India", "Indonesian": "Indonesia", "Irish": "Ireland", "Israeli": "Israel", "Italian": "Italy",
    "Japanese": "Japan", "Kenyan": "Kenya", "Malaysian": "Malaysia", "Mexican": "Mexico", "Moroccan": "Morocco",
    "Nepalese": "Nepal", "Nepali": "Nepal", "Dutch": "Netherlands", "Nigerian": "Nigeria", "Norwegian": "Norway",
    "Pakistani": "Pakistan", "Peruvian": "Peru", "Filipino": "Philippines", "Polish": "Poland",
    "Portuguese": "Portugal", "Qatari": "Qatar", "Romanian": "Romania", "Russian": "Russia", "Saudi": "Saudi Arabia",
    "Singaporean": "Singapore", "South African": "South Africa", "South Korean": "South Korea", "Korean": "South Korea",
    "Spanish": "Spain", "Sri Lankan": "Sri Lanka", "Swedish": "Sweden", "Swiss": "Switzerland", "Thai": "Thailand",
    "Turkish": "Turkey", "Ukrainian": "Ukraine", "Emirati": "United Arab Emirates", "American": "United States",
    "Vietnamese": "Vietnam",
}
_DEMONYM = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(d) for d in sorted(_DEMONYMS, key=len, reverse=True)) + r")"
    r"(?=\s+(?:entity|entities|office|offices|payroll|company|subsidiary|branch|team|contract|site|sites|employer|"
    r"operation|operations|business|colleagues?|staff|employees?|workers?|hires?|nationals?|citizens?)\b)"
)


def places_in(text: str) -> list[Place]:
    """Places the text names, in order. Two-letter and common-word names ("US", "Nice",
    "Reading") count only when written with capitals as names are; a country's adjective counts
    before an employer's part or its people ("the Polish entity")."""
    found = [(m.start(), _demonym_place(text, m)) for m in _DEMONYM.finditer(text) if _DEMONYMS[m.group(1)] in _COUNTRIES]
    index = _index()
    for m in _pattern().finditer(text):
        written = m.group(1)
        key = written.lower()
        if key in _AMBIGUOUS and not (written[0].isupper() and (len(written) > 2 or written.isupper())):
            continue
        if key == "us" and written != "US":
            continue
        country, capital, city = index[key]
        home = written_as_home(text, m.start(), m.end())
        found.append((m.start(), Place(written, country, _COUNTRIES[country][1], capital, city, home)))
    return [place for _, place in sorted(found, key=lambda pair: pair[0])]


def demonyms_of(country: str) -> tuple[str, ...]:
    """The adjectives of a country ("Irish" for Ireland, "British" for the United Kingdom)."""
    return tuple(d for d, c in _DEMONYMS.items() if c == country)


def countries_for_adjectives(text: str) -> str:
    """The text with a country's adjective written as the country ("the Polish entity": "the
    Poland entity"), for tables whose rows are countries."""
    return _DEMONYM.sub(lambda m: _DEMONYMS[m.group(1)] if _DEMONYMS[m.group(1)] in _COUNTRIES else m.group(1), text)


def _demonym_place(text: str, m: re.Match) -> Place:
    country = _DEMONYMS[m.group(1)]
    return Place(country, country, _COUNTRIES[country][1], False, False, written_as_home(text, m.start(), m.end()))


def destinations(text: str) -> list[Place]:
    """The places a question asks about: those that are not where the asker is based (all of
    them when every place is a home place)."""
    found = places_in(text)
    away = [p for p in found if not p.home]
    return away or found


def is_country_name(name: str) -> bool:
    entry = _index().get(name.strip().lower())
    return entry is not None and not entry[2]


def country_of(name: str) -> str | None:
    entry = _index().get(name.strip().lower())
    return entry[0] if entry else None


# words a rule uses for any place away from where it is written ("working from abroad", "outside
# the United Kingdom and Ireland")
_AWAY = ("abroad", "overseas", "foreign", "international", "outside")


@lru_cache(maxsize=4096)
def wider_names(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """For a place name (a country or a city): (the words of its country, its other names and
    its region; the words a rule uses for being away: "abroad", "outside" ...). Both empty for a
    word that names no place."""
    entry = _index().get(name.strip().lower())
    if entry is None:
        return frozenset(), frozenset()
    country = entry[0]
    aliases, region, _ = _COUNTRIES[country]
    nation = uk_nation(Place(name.strip(), country, region, entry[1], entry[2]))
    if nation:
        # a city of one nation of the UK is in none of the others ("Cardiff" is not in England)
        aliases = tuple(a for a in aliases if a not in _UK_NATIONS or a == nation)
    union = ("EU",) if country in _EU_MEMBERS else ()
    names = {w.lower() for n in (country, *aliases, *union, region) for w in re.findall(r"[^\W_]+", n)}
    return frozenset(names), frozenset(_AWAY)


@lru_cache(maxsize=1)
def country_words() -> frozenset[str]:
    """The lower-case words of every country name and other name that say a country on their own
    (not "the" of "The Netherlands", "of" or "republic" of "Republic of Ireland", "united")."""
    every = [w.lower() for c, (aliases, _, _) in _COUNTRIES.items() for n in (c, *aliases) for w in re.findall(r"[^\W_]+", n)]
    return frozenset(w for w in every if len(w) > 2 and w not in _NOT_A_COUNTRY)


_NOT_A_COUNTRY = frozenset({"the", "and", "republic", "united", "kingdom", "states", "great", "northern", "south", "north",
                            "east", "west", "new", "saudi", "arab", "emirates", "democratic", "people"})
