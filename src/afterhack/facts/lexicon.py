"""The words of a subject and its attribute, in one spelling whatever the wording.

Function words and the verbs that only say a value is set, moved or held ("is planned
for", "findet statt", "定于") carry no subject and are dropped. Words that name the same
attribute in other words map to one token: "kicks off", "begins" and "开始" to ``@start``;
"costs", "is priced at" and "Preis" to ``@cost``. Inflections are stripped alike on both
sides ("chairs" and "chaired", "leitet" and "geleitet"), and an agent noun meets its verb
("manager" and "managing").
"""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

# The Snowball stemmers keep the word they work on in the object: one call at a time.
_ENGLISH = snowballstemmer.stemmer("english")
_GERMAN = snowballstemmer.stemmer("german")
_LOCK = threading.Lock()

# Words that carry no subject: function words, the verbs "to be" and "to have", auxiliaries,
# and verbs that say a value is set, moved, held, received or lasts, not what it is a value
# of. English first, then German.
NEUTRAL = frozenset("""
a an the of for on at in to by with from into onto per as than that this these those it its
is are was were be been being am will would shall should can could may might must do does
did done doing has have had having get gets got gotten getting we our us they their them
there here he she his her you your i my me each every all any some which who whom whose
what when where now still currently new newly officially finally also again instead just
only so then about around approximately roughly nearly almost planned plan plans planning
schedule scheduled scheduling set sets setting move moves moved moving postponed postpone
postpones rescheduled reschedule reschedules pushed push pushes shifted shift shifts
changed change changes confirmed confirm confirms expected expect expects take takes
taking took taken place held happen happens happened happening occur occurs occurred
located based situated sits sit sitting going go goes went gone come came comes coming up
off out back there's it's pm am receive receives received receiving win wins won winning
include includes included including contain contains contained comprise comprises carry
carries carried make makes made making run runs ran running lasts lasted lasting
long period term duration length rate total overall host hosts hosted hosting book books
booked booking reserve reserves reserved reserving fall falls fell fallen rise rises rose
risen grow grows grew grown reach reaches reached stand stands stood remain remains
remained stay stays stayed far cover covers covered covering around each every per near
inside outside within beside next opposite across not never
we're we've we'll they're they've there are
der die das den dem des ein eine einen einem einer eines ist sind war waren wird werden
wurde wurden worden sein hat haben hatte im um an auf aus bei mit nach von vom zu zum zur
für über unter vor durch ohne und oder aber auch noch schon nur sich es er sie wir ihr uns
unser unsere unseren unserem unserer ihre dass nicht kein keine etwa rund ca circa
insgesamt derzeit jetzt nun geplant plant planen findet finden statt stattfinden liegt
liegen lag beträgt betragen betrug gibt gab befindet befinden dauert dauern dauerte
erhalten erhält erhielt bekommen bekommt bekam ging geht gehen soll sollen kann können
muss müssen neu neue neuen neuer ab je jeweils uhr läuft laufen habe hast habt ändern
ändert geändert verschoben verlegt
""".split())
# Words that only hold a sentence together (articles, prepositions, pronouns, auxiliaries,
# conjunctions): what stands around a word is read without them (frames.Frame.seq).
FUNCTION = frozenset("""
a an the of for on at in to by with from into onto as than that this these those it its
is are was were be been being am will would shall should can could may might must do does
did has have had having there here he she his her you your i my me we our us they their
them which who whom whose what when where and or but not so if also just only still per
it's there's we're we've we'll they're they've after
""".split())
FUNCTION_DE = frozenset("""
der die das den dem des ein eine einen einem einer eines ist sind war waren wird werden
wurde wurden worden sein hat haben hatte im um an am auf aus bei mit nach von vom zu zum zur
für über unter vor durch ohne und oder aber auch noch schon nur sich es er sie wir ihr uns
unser unsere unseren unserem unserer ihre dass nicht kein keine ins in ich mein meine
""".split())
# A few German function words are English nouns too: they are dropped from German only.
NEUTRAL_DE = NEUTRAL
NEUTRAL = NEUTRAL - {"war", "hat"}

# Phrases and words naming one attribute, to its token. A phrase is matched on words in
# order (hyphens and spaces alike), longest first.
_CANON_PHRASES: dict[str, tuple[str, ...]] = {
    "@start": ("kick off", "kicks off", "kicked off", "kicking off", "get underway",
               "gets underway", "fängt an", "zu beginn"),
    "@end": ("wrap up", "wraps up", "wrapped up", "wrapping up", "run out", "runs out",
             "ran out", "is over", "are over", "will be over", "last day", "zu ende",
             "ist zu ende", "läuft aus", "laufen aus"),
    "@capacity": ("room for", "space for", "has room for", "have room for", "platz für",
                  "bietet platz für"),
    "@budget": ("to spend",),
    "@limit": ("up to", "at most", "no more than"),
    "@per_year": ("per year", "a year", "each year", "every year", "per annum", "pro jahr",
                  "im jahr", "a yr"),
    "@per_quarter": ("per quarter", "a quarter", "each quarter", "every quarter"),
    "@per_month": ("per month", "a month", "each month", "every month", "pro monat",
                   "im monat"),
    "@per_week": ("per week", "a week", "each week", "every week", "pro woche"),
    "@per_day": ("per day", "a day", "each day", "every day", "each morning",
                 "every morning", "pro tag"),
    "@per_hour": ("per hour", "an hour", "each hour", "every hour", "pro stunde"),
    "@per_minute": ("per minute", "a minute", "each minute", "every minute", "pro minute"),
    "checkin": ("check in",),
    "checkout": ("check out",),
    "oncall": ("on call",),
    # Phrases that say nothing of the subject.
    "": ("takes place", "take place", "took place", "taking place", "comes to", "come to",
         "came to", "so far", "is set for", "has been", "have been"),
}
_CANON_WORDS: dict[str, tuple[str, ...]] = {
    "@start": ("start", "starts", "started", "starting", "begin", "begins", "began", "begun",
               "beginning", "commence", "commences", "commenced", "commencing", "open",
               "opens", "opened", "opening", "kickoff", "beginnt", "beginnen", "begann",
               "startet", "starten", "gestartet", "fängt", "anfangen", "eröffnet"),
    "@end": ("end", "ends", "ended", "ending", "finish", "finishes", "finished", "finishing",
             "close", "closes", "closed", "closing", "conclude", "concludes", "concluded",
             "concluding", "expire", "expires", "expired", "expiring", "expiry", "expiration",
             "until", "till", "through", "deadline", "due", "cutoff", "endet", "enden",
             "endete", "beendet", "schließt", "bis", "frist", "vorbei"),
    "@capacity": ("hold", "holds", "seat", "seats", "accommodate", "accommodates",
                  "capacity", "fit", "fits", "fasst", "kapazität"),
    "@cost": ("cost", "costs", "costing", "price", "prices", "priced", "pricing", "fee",
              "fees", "charge", "charges", "charged", "bill", "bills", "kostet", "kosten",
              "gekostet", "preis", "gebühr"),
    "@budget": ("budget", "budgets", "budgeted", "allocated", "allocation", "budgetiert",
                "etat"),
    "@pay": ("pay", "pays", "paid", "paying", "salary", "wage", "wages", "earn", "earns",
             "earned", "zahlt", "bezahlt", "gehalt"),
    "@attend": ("attend", "attends", "attended", "attending", "attendee", "attendees",
                "attendance", "participant", "participants", "participate", "teilnehmer",
                "besucher"),
    "@limit": ("limit", "limits", "limited", "allow", "allows", "allowed", "maximum", "max",
               "cap", "capped", "maximal", "höchstens"),
    "@depart": ("leave", "leaves", "leaving", "left", "depart", "departs", "departed",
                "departing", "departure", "abfahrt", "fährt", "abflug", "出发"),
    "@arrive": ("arrive", "arrives", "arrived", "arriving", "arrival", "land", "lands",
                "landed", "landing", "ankunft", "kommt", "landet", "landen", "gelandet",
                "到达"),
    "@where": ("venue", "location", "site", "ort", "veranstaltungsort", "standort"),
    "@per_year": ("annual", "annually", "yearly", "jährlich"),
    "@per_quarter": ("quarterly",),
    "@per_month": ("monthly", "monatlich"),
    "@per_week": ("weekly", "wöchentlich"),
    "@per_day": ("daily", "täglich"),
    "@per_night": ("nightly",),
    "@per_hour": ("hourly",),
    # Irregular forms and agent nouns, to the verb's stem.
    "lead": ("led", "leader", "leaders", "lead", "leads", "leading"),
    "manag": ("manager", "managers", "manage", "manages", "managed", "managing",
              "management"),
    "own": ("owner", "owners", "own", "owns", "owned"),
    "chair": ("chairman", "chairwoman", "chairperson", "chair", "chairs", "chaired"),
    "give": ("gave", "given", "give", "gives", "giving"),
    "sell": ("sold", "sell", "sells", "selling"),
    "writ": ("wrote", "written", "write", "writes", "writing"),
    "choos": ("chose", "chosen", "choose", "chooses", "choosing"),
    "buy": ("bought", "buy", "buys", "buying"),
    "build": ("built", "build", "builds", "building"),
    "send": ("sent", "send", "sends", "sending"),
    "overse": ("oversaw", "overseen", "oversee", "oversees", "overseeing"),
    "teach": ("taught", "teach", "teaches", "teaching"),
    "rent": ("rental", "rent", "rents", "renting", "rented"),
    "headquarter": ("headquarters", "headquartered", "hq"),
    "organis": ("organiser", "organizer", "organise", "organize", "organised",
                "organized"),
    "sponsor": ("sponsor", "sponsors", "sponsored", "sponsoring", "sponsorship"),
    "speak": ("speaker", "speakers", "speaks", "spoke", "speaking"),
    "respons": ("response", "responses", "respond", "responds", "responded"),
}
CANON_WORDS: dict[str, str] = {w: canon for canon, ws in _CANON_WORDS.items() for w in ws}
# First word of a phrase -> (the phrase's words, its token), longest phrases first.
PHRASES: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _canon, _phrases in _CANON_PHRASES.items():
    for _p in _phrases:
        _words = tuple(_p.split())
        PHRASES.setdefault(_words[0], []).append((_words, _canon))
for _list in PHRASES.values():
    _list.sort(key=lambda p: -len(p[0]))

# Chinese: words dropped, and words naming one attribute (matched longest first).
ZH_CANON: dict[str, str] = {
    "开始": "@start", "开幕": "@start", "启动": "@start", "开启": "@start", "开工": "@start",
    "结束": "@end", "闭幕": "@end", "截止": "@end", "到期": "@end",
    "可容纳": "@capacity", "容纳": "@capacity",
    "价格": "@cost", "售价": "@cost", "价钱": "@cost", "费用": "@cost", "花费": "@cost",
    "预算": "@budget", "地点": "@where", "场地": "@where",
    "每年": "@per_year", "每个月": "@per_month", "每月": "@per_month", "每天": "@per_day",
    "每日": "@per_day", "参会": "@attend", "参加": "@attend", "出席": "@attend",
}
ZH_DROP = tuple("""
定于 将于 将在 位于 设在 坐落于 落户 定在 定为 改在 改为 改到 已经 计划
预计 大约 达到 可以 举行 召开 举办 进行 为期 持续 目前 现在 正在 这台
这个 该 将 于 在 是 为 的 了 也 已 约 共 达
有 可 能 由 被 和 与 及 这 那 本 改 定 之
""".split())

# Chinese words that only hold a sentence together (particles, pronouns, prepositions,
# copulas, measure words, "this" and "that"), and the verbs that say a value is set or
# held: read as words (chinese.py), they are left out of what is compared.
ZH_FUNCTION = frozenset("""
的 了 是 为 在 于 和 与 及 跟 同 也 都 就 还 又 才 已 已经 将 会 要 需要 可以
能 可 被 由 把 给 向 从 到
这 那 这个 那个 这些 那些 这次 这台 这套 那套 这批 那批 该 本 其 之 个 名 件 台 位 套 批 家 次
我们 你们 他们 她们 咱们 大家 有 共 共计 一共 约 大约 大概 达到 达 目前 现在 现 定 定于 定在 改 改在
定为 改为 位于 设在 举行 召开 举办 进行 为期 持续 每 上 中 里 前 后 最 吗 呢 吧 啊 得 地 着 过
""".split())
# Verbs, for telling a statement from a heading: the forms of "to be" and "to have",
# modals, and verbs a plural subject leaves without a suffix ("Applications open on ...").
VERBS = frozenset("""
is are was were be been am will would shall should can could may might must do does did has
have had open close start end begin run hold take ship launch cost lead own move expect need
plan meet leave arrive depart finish go come sign approve give pay raise expire last allow
cover wrap kick happen occur remain stay fall rise grow drop reach land stand sit serve use
came went said got made took gave held left met ran paid sold bought set put began grew fell
rose won lost sent spent built told found kept brought stood became saw knew thought led
get attend hold wrote drove chose rode spoke broke froze stole wore shook forgot understood
oversaw undertook withdrew drew threw flew blew hung dug struck stuck swung spun sat shot
fought caught taught sought felt dealt meant lent bent heard laid hit cut let quit read sang
swam drank rang overcame joined heads oversees chairs runs manages owns leads signs
""".split())
# A statement that opens with one of these goes on with its verb.
PRONOUNS = frozenset("we they i you he she it".split())
CONTRACTED_VERBS = ("'re", "’re", "'ll", "’ll", "'ve", "’ve", "n't", "n’t")
TIMEZONES = frozenset("utc gmt cet cest eet est edt cst cdt pst pdt bst ist jst mez mesz"
                      .split())


def stem(word: str) -> str:
    """An English word's stem (Snowball), the same for its inflections ("closes", "closed")."""
    return _stem(word)


@lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    with _LOCK:
        return str(_ENGLISH.stemWord(w))


@lru_cache(maxsize=16384)
def stem_de(word: str) -> str:
    """A German word's stem (Snowball), a participle's "ge-" taken off first (Snowball keeps
    prefixes): "leitet", "leiten" and "geleitet" meet."""
    w = word.lower()
    if w.startswith("ge") and len(w) > 6 and w.endswith(("t", "en", "te", "tem", "ter", "tes")):
        w = w[2:]
    with _LOCK:
        return str(_GERMAN.stemWord(w))
