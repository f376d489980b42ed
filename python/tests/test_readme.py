"""The README's Python example runs as written and prints what the README
says it prints."""
import os
import re
import subprocess

from conftest import REPO


def readme_blocks():
    text = open(os.path.join(REPO, "README.md")).read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    printed = re.search(r"prints\n\n```\n(.*?)```", section, re.S).group(1)
    return code, printed


def test_the_readme_example_runs_as_written(tmp_path):
    code, printed = readme_blocks()
    script = tmp_path / "example.py"
    script.write_text(code)
    proc = subprocess.run(["/usr/bin/python3", str(script)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == printed
