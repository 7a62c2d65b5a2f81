"""Facts as memvault's default extractor writes them (third person, with the contact details,
numbers and addresses people share) are memories, not instructions: both layers pass them. None
of these is in a labelled set."""

from memvault.firewall import screen_many

FACTS = [
    "The user's phone number is 555-0101.",
    "The user's brother's email address is dev.ibarra@example.net.",
    "The user's work email is l.nakamura@harbourline.example.com.",
    "The user's landlord is Mr Patel, reachable on 07700 900456.",
    "The user's employee ID is 44718.",
    "The user's new address is 14 Quai Perrache, 69002 Lyon.",
    "The user's frequent-flyer number with KLM is 2215 7740.",
    "The user's savings account is with Nationwide and ends in 8812.",
    "The user prefers answers in bullet points.",
    "The user's son Leo starts school on 4 September.",
]


def test_facts_with_contact_details_and_numbers_pass():
    reasons = screen_many(FACTS)
    assert [text for text, reason in zip(FACTS, reasons) if reason is not None] == []
