"""Which browser on which system a login came from (登入裝置), read from its User-Agent for "my sessions".

A raw User-Agent ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 ... Chrome/124 Mobile
Safari/537.36") tells a player nothing; "Chrome on Android" does.  ua-parser (the Browserscope / uap-core
rules, kept up to date in ua-parser-builtins) does the reading; the client says it in the player's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import ua_parser

# Words the rules add to a browser's name on phones ("Chrome Mobile", "Mobile Safari", "Chrome Mobile iOS"):
# the system already says it is a phone.
_PHONE_WORDS = frozenset({"Mobile", "iOS", "WebView"})
UNKNOWN = "Other"  # what the rules call a browser or system they do not know


@dataclass(frozen=True)
class Device:
    """A login's browser and operating system, each None when the User-Agent does not say (e.g. a script)."""

    browser: str | None
    os: str | None


def _browser_name(family: str) -> str:
    words = [word for word in family.split() if word not in _PHONE_WORDS]
    return " ".join(words) or family


@lru_cache(maxsize=512)  # a few hundred distinct agents at most; reading one takes milliseconds
def device_of(user_agent: str) -> Device:
    """The browser and system named by ``user_agent`` ("Chrome Mobile" on Android is Chrome on Android)."""
    parsed = ua_parser.parse(user_agent)
    browser = parsed.user_agent.family if parsed.user_agent is not None else None
    system = parsed.os.family if parsed.os is not None else None
    return Device(browser=_browser_name(browser) if browser and browser != UNKNOWN else None,
                  os=system if system and system != UNKNOWN else None)
