"""Development pairs for reading attributes by meaning: a noun against a verb, and languages
against each other.

conflict_pairs_free.py words each side freely but mostly keeps the attribute in the same part
of speech; here one side names the attribute as a noun and the other as a verb or a phrase
("the launch is on June 12" / "we launch June 19"), and many pairs put English, German and
Chinese statements of one fact side by side. Near misses are the ones meaning could blur:
a start against an end, another subject with the same attribute, another attribute of the
same kind of value, the same value restated in another language, and first-person
statements of two people.

Every pair is a development pair: the reader is tuned on these and on the two older sets.
What it does on text it was never tuned on is the sealed set's figure, not this one's.
``lang`` names both sides' languages ("en", or "en-zh" for an English and a Chinese side).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Lang = Literal["en", "de", "zh", "en-de", "en-zh", "de-zh"]
Category = Literal["date", "time", "duration", "number", "amount", "percentage", "place",
                   "person", "organisation", "same_date_other_event", "start_vs_end",
                   "other_subject", "restated", "other_attribute"]
CONTRADICTION_KINDS: tuple[Category, ...] = ("date", "time", "duration", "number", "amount",
                                             "percentage", "place", "person", "organisation")
NEAR_MISS_KINDS: tuple[Category, ...] = ("same_date_other_event", "start_vs_end",
                                         "other_subject", "restated", "other_attribute")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    category: Category
    lang: Lang
    split: str = "dev"

    @property
    def contradicts(self) -> bool:
        return self.category in CONTRADICTION_KINDS


_RAW: dict[Category, list[tuple[Lang, str, str]]] = {
    "date": [
        ("en", "The launch is on June 12.", "We launch June 19."),
        ("en", "Delivery of the servers is expected on March 4.",
         "The servers will be delivered on March 11."),
        ("en", "The opening of the new store is on 3 October.",
         "The new store opens on 10 October."),
        ("en", "Payment of the invoice is due on April 30.",
         "The invoice has to be paid by May 15."),
        ("en", "Shipment of the order happens on 2 December.", "The order ships on 9 December."),
        ("en", "The election of the new board takes place on 20 November.",
         "Members elect the new board on 27 November."),
        ("en", "The migration to the new CRM is scheduled for August 18.",
         "We migrate to the new CRM on 25 August."),
        ("en", "Renewal of the lease is on 1 July.", "We renew the lease on 1 August."),
        ("en", "The handover of the keys is on Friday, May 9.",
         "We hand over the keys on Friday, May 16."),
        ("de", "Die Eröffnung des Ladens ist am 3. Oktober.", "Der Laden eröffnet am 10. Oktober."),
        ("de", "Die Lieferung der Server ist für den 4. März geplant.",
         "Die Server werden am 11. März geliefert."),
        ("zh", "新店开业时间是10月3日。", "新店10月10日开业。"),
        ("zh", "服务器的交付日期是3月4日。", "服务器3月11日交付。"),
        ("en-de", "The trade fair starts on 3 March.", "Die Messe beginnt am 10. März."),
        ("en-zh", "The product launch is on June 12.", "产品发布定于6月19日。"),
        ("de-zh", "Die Konferenz beginnt am 5. Mai.", "会议5月12日开始。"),
        ("en-zh", "The annual meeting is on December 20.", "年会在12月27日举行。"),
        ("en-de", "The launch date is September 15.", "Der Launch ist am 1. Oktober."),
    ],
    "time": [
        ("en", "Arrival of the guests is at 6 pm.", "Guests arrive at 7 pm."),
        ("en", "The departure of the train is at 8:05.", "The train leaves at 8:35."),
        ("en", "Lunch is served at noon.", "We serve lunch at 12:30."),
        ("en", "The store's opening time is 9 am.", "The store opens at 10:00."),
        ("en", "The start of the webinar is at 3 pm.", "The webinar starts at 4 pm."),
        ("de", "Die Abfahrt des Busses ist um 7:15 Uhr.", "Der Bus fährt um 7:45 Uhr ab."),
        ("de", "Der Beginn der Sitzung ist um 10 Uhr.", "Die Sitzung beginnt um 11 Uhr."),
        ("zh", "晚宴开始时间是晚上七点。", "晚宴晚上八点开始。"),
        ("en-de", "The meeting starts at 2 pm.", "Die Besprechung beginnt um 15 Uhr."),
        ("en-zh", "The dinner starts at 7 pm.", "晚宴晚上八点开始。"),
        ("en-zh", "The shuttle leaves at 6:30.", "班车七点出发。"),
        ("de-zh", "Das Abendessen beginnt um 19 Uhr.", "晚宴晚上八点开始。"),
    ],
    "duration": [
        ("en", "The renovation will last six weeks.", "Renovating the office takes four weeks."),
        ("en", "Approval of a visa takes 10 days.", "Visas are approved within three weeks."),
        ("en", "Training of new staff lasts 4 weeks.", "We train new staff for 6 weeks."),
        ("en", "The duration of the pilot is three months.", "The pilot runs for 8 weeks."),
        ("de", "Die Einarbeitung dauert zwei Wochen.",
         "Neue Kollegen werden drei Wochen eingearbeitet."),
        ("zh", "审批需要两周。", "审批要十天。"),
        ("en-de", "The training lasts three days.", "Die Schulung dauert fünf Tage."),
        ("en-zh", "The project runs for six months.", "项目周期是一年。"),
        ("de-zh", "Die Schulung dauert drei Tage.", "培训为期五天。"),
    ],
    "number": [
        ("en", "Attendance at the summit is expected to reach 2,000.",
         "We expect 3,000 people to attend the summit."),
        ("en", "The number of engineers on the team is 12.", "The team employs 15 engineers."),
        ("en", "Enrollment in the course is 40 students.",
         "Forty-five students enrolled in the course."),
        ("en", "The capacity of the hall is 500 people.", "The hall can seat 650 people."),
        ("en", "Production of the widget is 1,000 units a day.",
         "We produce 1,200 widgets a day."),
        ("de", "Die Zahl der Teilnehmer am Kurs liegt bei 200.",
         "Am Kurs nehmen 250 Teilnehmer teil."),
        ("zh", "参会人数为300人。", "将有500人参会。"),
        ("en-zh", "The venue holds 300 guests.", "会场可容纳450人。"),
        ("en-de", "The team has twelve engineers.", "Das Team hat 15 Ingenieure."),
        ("en-de", "The hotel has 80 rooms.", "Das Hotel hat 95 Zimmer."),
        ("en-zh", "The factory has 200 workers.", "工厂有350名工人。"),
    ],
    "amount": [
        ("en", "The cost of the renovation is $40,000.", "Renovating costs $55,000."),
        ("en", "The price of a ticket is £45.", "A ticket costs £50."),
        ("en", "Payment to the contractor is $5,000 a month.",
         "We pay the contractor $6,000 a month."),
        ("en", "The rent for the office is 3,000 euros a month.",
         "We rent the office for 3,500 euros per month."),
        ("en", "Funding for the project totals $2 million.",
         "The project is funded with $3 million."),
        ("en", "Spending on travel reached $18,000.", "We spent $21,000 on travel."),
        ("de", "Die Miete beträgt 1.200 Euro im Monat.", "Wir zahlen 1.400 Euro Miete pro Monat."),
        ("zh", "办公室租金是每月10000元。", "办公室每月租金为12000元。"),
        ("en-zh", "The event budget is 40,000 euros.", "活动预算为五万欧元。"),
        ("en-de", "The event budget is 40,000 euros.",
         "Das Budget der Veranstaltung beträgt 50.000 Euro."),
        ("de-zh", "Das Projektbudget beträgt 100.000 Euro.", "项目预算为12万欧元。"),
        ("en-zh", "The new laptop costs 8,000 yuan.", "新笔记本电脑售价9000元。"),
    ],
    "percentage": [
        ("en", "The growth of revenue was 12% last year.", "Revenue grew 15% last year."),
        ("en", "The discount for students is 10%.", "Students get 15% off."),
        ("en", "The approval rate for loans is 60%.", "Banks approve 70 percent of loans."),
        ("de", "Der Anstieg der Preise lag bei 3 Prozent.", "Die Preise stiegen um 5 %."),
        ("en-de", "The discount is 20%.", "Der Rabatt beträgt 25 Prozent."),
        ("en-zh", "The growth rate is 15%.", "增长率为12%。"),
        ("en-zh", "The discount is 20 percent.", "折扣是百分之三十。"),
    ],
    "place": [
        ("en", "The location of the offsite is Lisbon.", "We hold the offsite in Porto."),
        ("en", "The meeting place is the Grand Hotel.", "We meet at the Riverside Pavilion."),
        ("en", "The venue for the gala is the City Museum.",
         "The gala is held at the Opera House."),
        ("de", "Der Ort der Tagung ist Hamburg.", "Die Tagung findet in Bremen statt."),
        ("en-de", "The conference is in Berlin.", "Die Konferenz findet in München statt."),
        ("en-zh", "The launch event takes place in Shanghai.", "发布会在北京举行。"),
        ("de-zh", "Die Konferenz findet in Berlin statt.", "会议在上海举行。"),
    ],
    "person": [
        ("en", "The leader of the project is Maria Lopez.", "Tom Becker leads the project."),
        ("en", "Approval of expenses is done by Karen Wu.", "Omar Haddad approves expenses."),
        ("en", "The organiser of the meetup is Lena Fischer.", "Ravi Shah organises the meetup."),
        ("en", "The author of the report is Julia Meyer.", "Peter Hall wrote the report."),
        ("de", "Die Leitung des Projekts hat Anna Weber.", "Jonas Klein leitet das Projekt."),
        ("en-de", "Anna Weber chairs the meeting.", "Die Sitzung wird von Jonas Klein geleitet."),
        ("en-de", "The project lead is Maria Lopez.", "Das Projekt leitet Tom Becker."),
    ],
    "organisation": [
        ("en", "The supplier of our laptops is Northwind Traders Ltd.",
         "Our laptops are supplied by Contoso Electronics Inc."),
        ("en", "Hosting of the website is provided by Fabrikam Cloud Services.",
         "Tailspin Systems hosts the website."),
        ("en", "The auditor of the accounts is Mazars Group.",
         "The accounts are audited by Grant Holdings Ltd."),
        ("en-de", "The catering contract went to Northwind Foods Ltd.",
         "Den Catering-Auftrag hat die Schmidt Bau AG erhalten."),
        ("en-zh", "The project is built by Huawei Company.", "项目由中兴公司承建。"),
    ],
    "same_date_other_event": [
        ("en", "We launch June 12.", "The partner summit is on June 12."),
        ("en", "Delivery of the servers is on March 4.", "The board meets on March 4."),
        ("en", "The new store opens on 3 October.", "The opening of the museum is on 3 October."),
        ("en-zh", "The product launch is on June 12.", "董事会会议也在6月12日召开。"),
        ("en-de", "We ship the beta on October 2.",
         "Die Mitgliederversammlung findet am 2. Oktober statt."),
        ("de-zh", "Der Launch ist am 15. September.", "年会定于9月15日举行。"),
    ],
    "start_vs_end": [
        ("en", "The start of the sale is on 1 March.", "The sale ends on 15 March."),
        ("en", "The opening of the exhibition is on April 2.", "The exhibition closes on June 30."),
        ("en", "Boarding starts at 9:40.", "The end of boarding is at 10:05."),
        ("en", "The workshop begins at 9 am.", "The workshop finishes at 5 pm."),
        ("en-de", "The trade fair opens on 3 March.", "Die Messe endet am 6. März."),
        ("en-zh", "The conference starts at 9 am.", "会议下午五点结束。"),
        ("en-zh", "The campaign starts on October 1.", "活动于10月7日结束。"),
        ("de-zh", "Die Messe beginnt am 3. März.", "展会3月6日结束。"),
        ("en-de", "Registration opens on March 1.", "Die Anmeldung schließt am 30. April."),
    ],
    "other_subject": [
        ("en", "Ana's flight lands at 7:40.", "Ben's flight lands at 11:00."),
        ("en", "The Berlin office opens at 9 am.", "The Munich office opens at 8 am."),
        ("en", "The marketing team has 12 people.", "The sales team employs 20 people."),
        ("en", "The price of the basic plan is $10.", "The premium plan costs $25."),
        ("en-zh", "The marketing budget is $50,000.", "研发预算是8万美元。"),
        ("en-de", "The backend team has 12 engineers.", "Das Mobile-Team hat 9 Ingenieure."),
        ("en-zh", "The Shanghai office has 40 staff.", "北京办公室有60名员工。"),
        ("de-zh", "Das Marketingbudget beträgt 50.000 Euro.", "研发部的预算是8万欧元。"),
        ("en", "The keynote starts at 9 am.", "The closing panel begins at 4 pm."),
    ],
    "restated": [
        ("en", "The launch is on June 12.", "We launch June 12."),
        ("en", "The cost of the renovation is $40,000.", "Renovating costs $40,000."),
        ("en", "The leader of the project is Maria Lopez.", "Maria Lopez leads the project."),
        ("en-zh", "The product launch is on June 12.", "产品发布定于6月12日。"),
        ("en-zh", "The event budget is 40,000 euros.", "活动预算为四万欧元。"),
        ("en-de", "The conference starts on May 5.", "Die Konferenz beginnt am 5. Mai."),
        ("en-de", "The discount is 20%.", "Der Rabatt beträgt 20 Prozent."),
        ("de-zh", "Die Schulung dauert drei Tage.", "培训为期三天。"),
        ("en-zh", "The launch event takes place in Beijing.", "发布会在北京举行。"),
        ("en-de", "The team has twelve engineers.", "Das Team hat zwölf Ingenieure."),
        ("en-zh", "The venue holds 300 guests.", "会场可容纳300人。"),
    ],
    "other_attribute": [
        ("en", "The launch is on June 12.", "The launch budget is $50,000."),
        ("en", "The launch budget is $50,000.", "The launch has cost $32,000 so far."),
        ("en", "The venue holds 300 guests.", "The venue has 12 meeting rooms."),
        ("en", "The ticket price is $45.", "The booking fee is $5."),
        ("en", "The team has 12 engineers.", "The team has 3 designers."),
        ("en-zh", "The venue holds 300 guests.", "会场有12个会议室。"),
        ("en-de", "The conference has 40 speakers.", "Die Konferenz erwartet 2.000 Besucher."),
        ("en-zh", "The project budget is 100,000 euros.", "项目已花费三万欧元。"),
        ("en-de", "The flight departs at 10:15.", "Der Flug landet um 13:40 Uhr."),
    ],
}

PAIRS: tuple[Pair, ...] = tuple(
    Pair(a, b, cat, lang) for cat, rows in _RAW.items() for lang, a, b in rows)
