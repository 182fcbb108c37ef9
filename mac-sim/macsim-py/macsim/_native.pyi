"""Type stubs of the native module (Rust, PyO3). See the package `macsim`."""

from os import PathLike
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

__version__: str

class Scenario:
    """A run's parameters, each optional; see ``macsim.FIELDS`` for the keys."""
    def __init__(self, **params: Union[int, float, str, bool, None]) -> None: ...
    def replace(self, **params: Union[int, float, str, bool, None]) -> Scenario: ...
    def overlay(self, other: Scenario) -> Scenario: ...
    @staticmethod
    def from_toml(text: str, name: str = "<toml>") -> Scenario: ...
    @staticmethod
    def from_json(text: str, name: str = "<json>") -> Scenario: ...
    @staticmethod
    def from_file(path: Union[str, PathLike[str]]) -> Scenario: ...
    def to_toml(self) -> str: ...
    def keys(self) -> List[str]: ...
    def get(self, key: str) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Union[int, float, str, bool]]: ...
    def complete(self) -> Scenario: ...
    def __eq__(self, other: object) -> bool: ...

def fields() -> List[Tuple[str, str, str, str]]: ...
def metrics() -> List[str]: ...
def run(
    scenario: Scenario,
    per_station: bool = False,
    trace: bool = False,
    progress: Optional[Callable[[int, int], None]] = None,
    given: List[str] = ...,
    max_memory: Optional[str] = None,
) -> Dict[str, Any]: ...
def sweep(
    base: Scenario,
    replications: int = 5,
    seed: int = 1,
    common_random_numbers: bool = False,
    threads: Optional[int] = None,
    db: Optional[str] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    max_memory: Optional[str] = None,
    **axes: Any,
) -> Dict[str, Any]: ...
def read_campaign(path: str) -> Dict[str, List[Any]]: ...
def slotted(
    stations: int = 32,
    frame_bytes: int = 1518,
    slot_bits: int = 512,
    successes: int = 1_000_000,
    probability: Optional[float] = None,
    seed: int = 1,
) -> str: ...
def mb_efficiency(stations: int, frame_bits: float = 12144.0, slot_bits: float = 512.0) -> float: ...
def beb_expected_backoff(collisions: int, backoff_limit: int = 10, attempt_limit: int = 16) -> float: ...
def beb_window(collisions: int, backoff_limit: int = 10, attempt_limit: int = 16) -> int: ...
def beb_decide(
    collisions: List[int], rng_seed: int, backoff_limit: int = 10, attempt_limit: int = 16
) -> List[Optional[int]]: ...
def storm(
    scenario: str,
    seed: Optional[int] = None,
    clients: Optional[int] = None,
    horizon: Optional[str] = None,
    strategies: Optional[List[str]] = None,
    timeouts: Optional[List[str]] = None,
    bin: Optional[str] = None,
    settings: Optional[List[Tuple[str, str]]] = None,
    seeds: int = 1,
    sweep: Optional[str] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    db: Optional[str] = None,
    max_memory: Optional[str] = None,
) -> Dict[str, Optional[str]]: ...

def radio(
    params: Optional[Dict[str, Any]] = None,
    sweep: Optional[Dict[str, Any]] = None,
    scenario: Optional[str] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    db: Optional[str] = None,
    max_memory: Optional[str] = None,
) -> Dict[str, str]: ...

class Delays(Iterator[float]):
    """The delays (seconds) of a retry policy for one request that always fails."""
    def __iter__(self) -> Delays: ...
    def __next__(self) -> float: ...

class Policy:
    """A retry policy of backoff-core."""
    def delays(self, rng_seed: int = 1, limit: Optional[int] = 1000, attempt_ns: int = 0) -> Delays: ...

AWS_SDK_MAX_ATTEMPTS: int
GRPC_MAX_ATTEMPTS_CAP: int

def preset_names() -> List[str]: ...
def preset(name: str) -> Policy: ...
def grpc_retry(
    max_attempts: int, initial_backoff_ns: int, max_backoff_ns: int, backoff_multiplier: Tuple[int, int]
) -> Policy: ...
def celery(factor_secs: int, retry_backoff_max_secs: int, retry_jitter: bool, max_retries: int) -> Policy: ...
def aws(jitter: str, max_attempts: int, base_ns: int, cap_ns: int) -> Policy: ...
def google_cloud(max_attempts: int, maximum_backoff_ns: int) -> Policy: ...
def policy(
    initial_ns: int,
    multiplier: Tuple[int, int],
    cap_ns: Optional[int] = None,
    jitter: str = "none",
    spread: Optional[Tuple[int, int]] = None,
    jitter_max_ns: Optional[int] = None,
    ceiling_ns: Optional[int] = None,
    first_delay_unjittered: bool = False,
    max_attempts: Optional[int] = None,
    max_retries: Optional[int] = None,
    max_delay_ns: Optional[int] = None,
    max_elapsed_ns: Optional[int] = None,
) -> Policy: ...
def storm_keys() -> str: ...
def report_card(
    policy: str,
    rate: float = 100.0,
    capacity: float = 200.0,
    timeout: str = "1s",
    seed: int = 1,
) -> Dict[str, str]: ...
def radio_keys() -> str: ...
