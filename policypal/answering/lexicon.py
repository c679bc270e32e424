"""Words that say the same thing in workplace policies, for deciding whether evidence carries a
question's terms. General vocabulary of HR, travel and expenses, finance, IT and security
policies (the kind of synonyms an enterprise search thesaurus lists), not the wording of any one
policy. Each group is a set of words or phrases that an employee may use for one another; a
question term is carried by evidence that holds any member of its group.

The word-vector check in `coverage.py` covers single-word synonyms beyond these lists; the lists
are for phrases and for pairs whose vectors are far apart ("vacation" and "annual leave").
"""
from __future__ import annotations

SYNONYM_GROUPS: list[set[str]] = [
    # meals by their time of day
    {"dinner", "evening meal", "supper"},
    {"lunch", "midday meal", "luncheon"},
    # hospitality roles
    {"waiter", "waitress", "server", "waiting staff", "food server"},
    # paid or given besides something else
    {"additional", "in addition", "in addition to", "on top of", "supplement", "supplementary"},
    # people paid to give care
    {"carer", "carers", "care worker", "care workers", "care staff"},
    # leaving a place of danger
    {"withdraw", "withdrawal", "pull out", "pull everyone out", "evacuate", "evacuation", "get out"},
    # the ends of a range
    {"maximum", "max", "top", "highest", "ceiling", "upper limit"},
    {"minimum", "min", "bottom", "lowest", "floor", "lower limit"},
    # held lying on the front
    {"prone", "face down", "face-down", "facedown", "on their front", "on his front", "on her front"},
    # one after another without a break
    {"consecutive", "in a row", "back to back", "back-to-back", "on the trot", "successive"},
    # the first step of a pay scale
    {"entry point", "entry step", "entry salary", "entry level", "starting salary", "starting pay", "starting point",
     "starting rate", "start point", "starting step"},
    # leave and time off
    {"vacation", "holiday", "annual leave", "earned leave", "paid time off", "pto", "time off", "leave"},
    {"sick", "ill", "illness", "unwell", "sickness", "medical leave", "sick leave"},
    {"sick pay", "sickness pay", "statutory sick pay", "ssp", "company sick pay"},
    {"bereavement", "compassionate", "funeral", "death"},
    {"carry over", "carry forward", "roll over", "rollover", "carryover", "carried forward", "bank"},
    {"encash", "encashment", "cash out", "paid out", "buy back"},
    {"unpaid", "without pay", "lwp"},
    {"part time", "part-time", "part-timer", "part-timers", "part timer", "part timers", "reduced hours"},
    {"notice", "notice period"},
    {"resign", "resignation", "quit", "leaver", "exit", "departure"},  # not "leaving": "leave" is also time off
    {"fire", "dismiss", "dismissal", "termination", "terminate", "sack"},
    {"probation", "probationary"},
    {"boss", "manager", "line manager", "supervisor"},
    {"supervise", "supervision", "look after", "looks after", "looking after", "oversee"},
    {"hr", "people team", "human resources"},
    {"doctor", "medical practitioner", "physician", "gp"},
    {"doctor's note", "medical certificate", "sick note", "fit note"},
    {"join", "joiner", "new starter", "start date", "hire", "onboarding"},
    {"volunteer", "volunteering", "charity"},
    {"second job", "side job", "another job", "secondary employment", "outside employment", "additional employment",
     "moonlighting", "outside interests"},
    # protective equipment and first aid, as workers name them
    {"hearing protection", "ear defenders", "ear defender", "ear protection", "ear plugs", "earplugs", "ear muffs", "earmuffs"},
    {"eye protection", "safety glasses", "safety goggles", "goggles", "safety specs"},
    {"resuscitation", "cpr", "chest compressions", "rescue breaths"},
    {"jewellery", "jewelry", "ring", "rings", "wedding ring", "wedding band", "earrings", "necklace", "bracelet",
     "piercing", "piercings"},
    {"information security", "infosec", "cyber security", "cybersecurity", "it security"},
    # pay and reward
    {"salary", "pay", "wage", "wages", "compensation", "remuneration", "base pay"},
    {"bonus", "incentive", "variable pay"},
    {"raise", "increase", "pay rise", "increment"},
    {"grade", "level", "band"},
    {"pension", "retirement"},
    # currencies
    {"usd", "dollar", "dollars", "us dollars"},
    {"gbp", "pound", "pounds", "sterling"},
    {"inr", "rupee", "rupees"},
    {"eur", "euro", "euros"},
    # travel and expenses
    {"expense", "expenses", "claim", "reimburse", "reimbursement", "reimbursable", "pay back", "refund", "money back", "pay for", "paid for"},
    {"hotel", "accommodation", "lodging", "room", "stay overnight"},
    {"flight", "fly", "airfare", "air travel", "plane"},
    {"train", "rail", "railway"},
    {"taxi", "cab", "ride hailing", "uber"},
    {"car", "vehicle", "driving", "mileage"},
    {"km", "kilometre", "kilometer", "kilometres", "kilometers"},
    {"meal", "meals", "food", "subsistence", "per diem", "daily allowance"},
    {"per diem", "subsistence", "daily allowance", "daily rate"},
    {"alcohol", "alcoholic", "drinks", "wine", "beer"},
    {"receipt", "invoice", "proof of purchase"},
    {"paperwork", "documents", "documentation", "evidence", "proof"},
    # what backs up a claim or a time record, as a table's column names it
    {"evidence", "supporting evidence", "supporting record", "supporting records"},
    {"first class", "first-class"},
    {"business class", "business-class"},
    {"economy", "coach", "standard class"},
    {"abroad", "international", "overseas", "foreign"},
    {"home country", "domestic"},
    {"relocation", "relocate", "moving", "move", "removal"},
    {"tenure", "length of service", "years of service", "service"},
    {"country", "location", "destination"},
    # customers and refunds
    {"refund", "money back", "repay", "reimburse"},
    {"customer", "client"},
    {"cancel", "cancellation", "terminate"},
    {"subscription", "plan", "contract"},
    # IT and security
    {"laptop", "computer", "notebook", "pc", "device"},
    {"phone", "mobile", "smartphone", "cell phone", "handset", "iphone", "android"},
    {"hand over", "handed over", "hand on", "pass on", "passed on", "transfer", "transferred"},
    {"ring in", "phone in", "call in", "ring up", "phone up", "telephone", "by phone", "by telephone", "phone call"},
    {"tablet", "ipad"},
    {"freezer", "cold store", "chiller", "cold room"},
    {"byod", "bring your own device", "personal device", "own device"},
    {"password", "passphrase", "credentials"},
    {"switch off", "switched off", "disable", "disabled", "deactivate", "turn off", "shut off", "suspend", "revoke", "remove access"},
    {"idle", "inactive", "inactivity", "without activity", "unattended", "walk away"},
    {"log out", "logged out", "sign out", "signed out", "logs out", "time out", "session ends"},
    {"log in", "logged in", "login", "sign in", "signed in", "sign-in", "logon"},
    {"superuser", "root", "domain admin", "administrator"},
    {"mfa", "2fa", "multi-factor", "multi factor", "two-factor", "two factor"},
    {"vpn", "virtual private network", "remote access"},
    {"lost", "stolen", "missing", "theft"},
    {"email", "e-mail", "mail"},
    {"folder", "file store", "file share", "shared drive", "directory"},
    {"usb", "removable media", "memory stick", "flash drive", "usb stick"},
    {"software", "app", "application", "program", "tool"},
    {"install", "download"},
    {"admin", "administrator", "privileged"},
    {"patch", "update", "updates"},
    {"wifi", "wi-fi", "wireless"},
    {"encrypt", "encryption", "encrypted"},
    {"confidential", "sensitive", "restricted", "secret"},
    {"personal data", "personal information", "pii"},
    {"delete", "deletion", "dispose", "disposal", "erase", "destroy", "shred", "shredding"},
    {"sue", "lawsuit", "litigation", "legal action", "legal claim", "legal proceedings", "court case"},
    {"keep", "retain", "retention", "store"},
    {"breach", "incident", "leak"},
    {"report", "notify", "tell", "inform"},
    {"approve", "approval", "sign off", "authorise", "authorize", "permission"},
    {"assign", "assigned", "allocate", "allocated", "allot", "allotted"},
    {"ask for", "request", "requests", "apply for", "application"},
    {"deadline", "within", "by when", "due"},
    {"buy", "purchase", "book"},
    {"ticket", "fare"},
    {"child", "children", "kid", "kids", "baby"},
    {"birth", "born", "baby", "newborn", "new baby"},  # "when a baby is born": a birth
    {"sms", "text message", "text messages"},
    {"attend", "attendance", "arrive", "arrival", "get to site", "reach site", "on site"},  # "how long to get to site"
    {"bundle", "pack", "package"},
    {"partner", "spouse", "husband", "wife"},
    {"cohabiting", "cohabit", "cohabitee", "live with", "living with", "live together", "living together"},
    {"mother", "mum", "mom", "mam"},
    {"father", "dad"},
    {"grandparent", "grandparents", "grandmother", "grandfather", "grandma", "grandpa", "granny", "grandad",
     "granddad", "nan", "nana", "gran"},
    {"grandchild", "grandchildren", "grandson", "granddaughter"},
    {"long service", "long-service", "long serving", "long-serving"},
    # a sum paid for years of service, however a policy calls it
    {"loyalty bonus", "loyalty payment", "loyalty award"},
    {"sibling", "siblings", "brother or sister"},
    {"remote", "work from home", "working from home", "wfh", "homeworking", "home working", "remote working",
     "hybrid working", "work remotely", "working remotely"},
    # working time and shifts
    {"rota", "roster", "rostered", "shift pattern", "schedule"},
    {"toil", "time off in lieu", "lieu"},
    {"weekday", "weekdays", "monday to friday", "mon-fri", "working day", "working days"},
    {"ahead", "in advance", "beforehand", "prior notice"},
    {"alone", "by myself", "on my own", "lone working", "lone worker", "unaccompanied", "work alone"},
    {"cap", "limit", "ceiling", "maximum"},
    {"yearly", "annual", "annually", "per year", "a year", "calendar year"},
    {"drag on", "drags on", "dragging on", "drag", "drags", "last", "lasts", "lasted", "lasting", "goes on", "go on"},
    # the other periods a rate or a limit is given for
    {"daily", "per day", "each day", "every day", "day rate", "a day"},
    {"weekly", "per week", "each week", "every week", "a week"},
    {"monthly", "per month", "each month", "every month", "calendar month", "a month"},
    {"hourly", "per hour", "each hour", "every hour", "an hour"},
    {"nightly", "per night", "each night", "every night", "a night"},
    {"sleep", "kip", "nap", "doze", "night out", "nightout"},
    {"fee", "fees", "cost", "costs", "charge", "price"},
    # vehicles and travel
    {"bicycle", "bike", "e-bike", "cycle", "cycling"},
    {"motorcycle", "motorbike"},
    {"moped", "scooter"},
    {"rental", "hire car", "rented", "rent"},
    {"abroad", "another country", "outside the country", "overseas"},
    # people
    # gifts and conflicts
    {"gift", "present", "voucher", "gift card"},
    {"voucher", "gift card", "cash equivalent", "cash equivalents"},
    # safety and labs
    {"glasses", "spectacles", "specs", "eyewear"},
    {"hi-vis", "high-visibility", "high visibility", "reflective"},
    {"sample", "samples", "specimen", "specimens"},
    {"breath test", "breathalyser", "breathalyzer", "alcohol test"},
    {"refuse", "refusal", "decline", "say no", "turn down"},
    # giving things back, and days off by law
    {"return", "send back", "give back", "hand back", "hand in", "bring back"},
    {"public holiday", "bank holiday", "statutory holiday", "national holiday"},
    # learning, money set aside, workplaces and engineering practice
    {"training", "learning", "l&d", "learning and development"},
    {"conference", "symposium", "congress", "convention", "colloquium"},
    {"allowance", "budget", "pot", "fund", "allocation"},
    {"coworking", "co-working", "hot desk", "hot-desk", "shared workspace", "flexible workspace"},
    {"post-incident review", "postmortem", "post-mortem", "incident review", "retrospective", "write-up", "write up"},
    {"staging", "test environment", "testing environment", "non-production", "pre-production"},
    # security, stores and sites
    {"theft", "steal", "stealing", "shoplifter", "shoplifters", "shoplifting", "thief", "thieves"},
    {"chase", "chasing", "run after", "pursue", "go after"},
    {"break-in", "broken into", "forced entry", "burglary", "burgled"},
    {"flammable", "combustible", "inflammable"},
    {"lorry", "lorries", "truck", "hgv", "delivery vehicle"},
    {"drop off", "dropping off", "deliver", "delivering", "delivery", "deliveries"},
    {"urgent", "urgently", "rush", "emergency", "asap"},
    {"swap", "swapped", "swapping", "replace", "replaced", "replacement"},
    {"skip", "skipping", "skipped", "miss", "missed", "not taken", "untaken", "forgo"},
    {"at the same time", "simultaneously", "concurrently", "concurrent", "in parallel"},
    {"pay the difference", "cover the difference", "top up", "cover the extra cost", "pay the extra"},
    {"raise", "pay rise", "increment", "pay progression", "progression"},
    # tools and data
    {"chatbot", "chatgpt", "ai tool", "ai tools", "ai assistant", "generative ai", "llm", "copilot"},
    {"paste", "pasted", "pasting", "enter", "entered", "input"},
    {"premium", "uplift", "supplement", "enhancement", "enhanced rate", "extra"},
    {"wind", "winds", "windy", "blowing", "wind speed", "wind force"},
    {"accident", "collision", "crash", "bump", "prang", "scrape", "road traffic accident"},
    {"passenger", "passengers", "give a lift", "giving a lift", "gave a lift", "car share", "car sharing", "carpool"},
    {"wifi", "wi-fi", "broadband", "internet connection", "home internet"},
    {"cockpit", "flight deck"},
    # the verb and the noun of answering a call or an alarm (the stemmer keeps them apart)
    {"respond", "responds", "responded", "responding", "response", "responses"},
    {"boys and girls", "girls and boys", "mixed", "mixed-sex", "mixed sex", "both sexes", "co-ed"},
    {"full time", "full-time", "full-timer", "full-timers", "full timer", "full timers"},
    {"resit", "re-sit", "retake", "resits", "retakes", "sit again"},
    {"phd", "doctoral", "doctorate", "dphil"},
    {"drug", "drugs", "medicine", "medicines", "medicinal", "medication", "medicinal product"},
    {"msc", "masters", "master's", "taught postgraduate", "pgt"},
    {"monitor", "monitoring", "monitors", "monitored", "keep track", "keeping track", "keeps track", "kept track",
     "keep an eye on", "keeping an eye on"},
]

# A general word and the kinds it covers: each kind says the general word and the general word
# says each kind, but two kinds do not say each other ("Saturday" is not "Sunday", a diploma is not
# a degree, a brother is not a parent: rows of a table are often such siblings).
HUB_GROUPS: list[tuple[set[str], set[str]]] = [
    ({"weekend"}, {"saturday", "sunday"}),
    ({"parental"}, {"paternity", "maternity", "adoption"}),
    ({"meal", "meals", "food", "subsistence"}, {"dinner", "lunch", "breakfast"}),
    ({"removable media"}, {"memory card", "sd card", "external drive", "hard disk", "usb"}),
    ({"relative", "relatives", "family", "family member", "family members", "close relative", "relation"},
     {"brother", "sister", "parent", "parents", "mother", "father", "son", "daughter", "cousin", "spouse", "wife", "husband"}),
    ({"qualification"}, {"diploma", "degree", "certificate"}),
    ({"parent", "parents"}, {"mother", "father", "mum", "mom", "dad"}),
    ({"child", "children"}, {"son", "daughter", "stepchild", "stepson", "stepdaughter"}),
    ({"weather", "bad weather", "bad-weather"}, {"gale", "gales", "storm", "storms", "snow", "rain", "high winds", "ice", "heatwave"}),
    ({"partner"}, {"girlfriend", "boyfriend", "fiance", "fiancee"}),
    ({"female", "females"}, {"woman", "women", "girl", "girls", "lady", "ladies"}),
    ({"male", "males"}, {"men", "boy", "boys", "gentleman", "gentlemen"}),
    ({"hot work", "hot works"}, {"grinding", "welding", "brazing", "soldering", "flame cutting"}),
    ({"furniture"}, {"chair", "desk", "footrest", "shelving", "filing cabinet", "drawer unit"}),
    ({"drink", "drinks", "drinking", "beverage", "beverages"}, {"coffee", "tea", "juice", "soft drink"}),
    # ailments an employee names for being sick ("a cold" and "virus" are left out: cold stores, computer viruses)
    ({"sick", "ill", "illness", "unwell", "sickness"},
     {"stomach bug", "tummy bug", "flu", "influenza", "migraine", "food poisoning", "chest infection", "fever",
      "vomiting", "diarrhoea", "covid"}),
]
SYNONYM_GROUPS += [hubs | {kind} for hubs, kinds in HUB_GROUPS for kind in kinds]

# Leave around a birth named by who takes it, read one way only: a row "Parental leave (partner)"
# is the paternity leave asked for, but "my partner" asks nothing of paternity leave ("share up to
# 50 weeks of leave with her partner" is shared parental leave). For naming table rows.
TAKEN_BY: dict[str, set[str]] = {
    "paternity": {"partner", "father", "second parent", "non-birth parent", "secondary carer", "secondary caregiver"},
    "maternity": {"birth parent", "birthing parent", "birth mother", "mother", "primary carer", "primary caregiver"},
}

# Phrases in the groups above that must be matched as phrases (more than one word).
PHRASES: list[str] = sorted({m for g in SYNONYM_GROUPS for m in g if " " in m or "-" in m})

# Words of a policy that never stand for a question's word through word vectors alone: their
# policy sense is not their everyday one ("leave" is time off, so it is no "resign" or "quit",
# though MiniLM puts resign/leave at 0.64). The lexicon's own groups still apply to them.
NOT_BY_VECTORS = frozenset({"leave", "leaves"})
