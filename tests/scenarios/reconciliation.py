"""The reconciliation scenarios both frameworks' agents are tested with.

Each maps a name to ``(what the user says, one text per turn; the memory model's replies, in
order; the memories live at the end, sorted)``.
"""

import json


def facts(*texts):
    return json.dumps({"facts": list(texts)})


def decide(*entries):
    return json.dumps({"decisions": list(entries)})


SCENARIOS = {
    "a move updates the fact": (
        ["I live in Lisbon.", "I moved to Porto."],
        [
            facts("The user lives in Lisbon."),
            facts("The user moved to Porto."),
            decide({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
        ],
        ["The user lives in Porto."],
    ),
    "no longer eating meat retires the steak fact": (
        ["I love steak.", "I no longer eat meat."],
        [
            facts("The user loves steak."),
            facts("The user no longer eats meat."),
            decide({"fact": 0, "event": "DELETE", "id": 0}, {"fact": 0, "event": "ADD"}),
        ],
        ["The user no longer eats meat."],
    ),
    "a repeated fact is none": (
        ["I love hiking.", "Hiking is what I enjoy most."],
        [
            facts("The user loves hiking."),
            facts("The user enjoys hiking most."),
            decide({"fact": 0, "event": "NONE", "id": 0}),
        ],
        ["The user loves hiking."],
    ),
    "an invented id changes nothing": (
        ["I live in Lisbon.", "I moved to Porto."],
        [
            facts("The user lives in Lisbon."),
            facts("The user moved to Porto."),
            decide({"fact": 0, "event": "DELETE", "id": 42}),
        ],
        ["The user lives in Lisbon.", "The user moved to Porto."],
    ),
    "a garbage reply keeps every new fact": (
        ["I live in Lisbon.", "I moved to Porto with my dog."],
        [
            facts("The user lives in Lisbon."),
            facts("The user moved to Porto.", "The user has a dog."),
            "Sorry, I can't do that.",
        ],
        ["The user has a dog.", "The user lives in Lisbon.", "The user moved to Porto."],
    ),
}
