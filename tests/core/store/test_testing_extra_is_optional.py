"""pytest and hypothesis are the optional extra memvault[testing]: importing memvault never loads
them, and memvault.testing without them says which extra to install."""

import subprocess
import sys
import textwrap


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )


def test_importing_memvault_loads_neither_pytest_nor_hypothesis():
    done = run(
        """
        import sys
        import memvault
        tools = ("pytest", "_pytest", "hypothesis")
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in tools)
        assert not loaded, loaded
        """
    )
    assert done.returncode == 0, done.stderr


def test_memvault_testing_without_pytest_names_the_extra():
    for missing in ["pytest", "hypothesis"]:
        done = run(
            f"""
            import sys
            sys.modules[{missing!r}] = None  # as if not installed
            try:
                import memvault.testing
            except ImportError as error:
                print(error)
                assert error.name == {missing!r}, error.name
            else:
                raise SystemExit("imported without {missing}")
            """
        )
        assert done.returncode == 0, done.stderr
        assert "pip install 'memvault[testing]'" in done.stdout
        assert f"{missing} is missing" in done.stdout
