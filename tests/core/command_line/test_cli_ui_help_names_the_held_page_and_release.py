"""`memvault ui -h` says the inspector has a Held page, where memories the firewall keeps out of
prompts are reviewed and released."""

from tests.core.cli import cli


def test_the_help_names_the_held_page_and_release():
    text = " ".join(cli("ui", "-h").stdout.split())
    assert "Its Held page lists the memories the poisoning firewall keeps out of prompts" in text
    assert "releases one after review (as memvault release does)" in text
