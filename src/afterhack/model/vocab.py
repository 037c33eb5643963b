"""The product's words, each declared once: statuses, ops, kinds, labels and edge names.

Each vocabulary is a ``Literal`` (what mypy and pydantic check) with the tuple of its values
derived from it, in the order declared; the subsets rules test against are frozensets of
it. Import them from here; never spell a set of them out again.
"""

from __future__ import annotations

from typing import Literal, TypeVar, get_args

# Claims. A current claim may be cited; the others are kept for the record (docs/rules.md,
# rule 3). A claim an erasure request names is withheld until a reviewer applies the request
# (then it is erased: its words are gone, rule 22) or declines it (then it is what it was).
ClaimStatus = Literal["proposed", "accepted", "rejected", "superseded", "withheld", "erased"]
CLAIM_STATUSES: tuple[ClaimStatus, ...] = get_args(ClaimStatus)
CURRENT_CLAIM: frozenset[ClaimStatus] = frozenset({"proposed", "accepted"})
# Not current: replaced by a correction (superseded), retracted (rejected), erased, or
# withheld while an erasure request waits (the one of them that may be current again).
RETIRED_CLAIM: frozenset[ClaimStatus] = frozenset(CLAIM_STATUSES) - CURRENT_CLAIM
# What still holds up the decisions resting on it: a withheld claim is offered to no new
# run, but what was decided on it is re-checked only when the request is applied.
SUPPORTING_CLAIM: frozenset[ClaimStatus] = CURRENT_CLAIM | {"withheld"}
# How much a claim's confidence is worth: a quote that matched, or a reviewer's word.
ConfidenceKind = Literal["quote_match", "human_correction"]
CONFIDENCE_KINDS: tuple[ConfidenceKind, ...] = get_args(ConfidenceKind)

# Decisions. A decision in good standing may be built on and its actions may go ahead.
DecisionStatus = Literal["draft", "accepted", "needs_review", "rejected"]
DECISION_STATUSES: tuple[DecisionStatus, ...] = get_args(DecisionStatus)
GOOD_STANDING: frozenset[DecisionStatus] = frozenset({"draft", "accepted"})
# What a reviewer may do to a decision, and from which statuses (review.py).
DecisionOp = Literal["accept", "reject", "reconfirm"]
DECISION_OPS: tuple[DecisionOp, ...] = get_args(DecisionOp)

# Actions. An open action is one a fallen decision puts on hold.
ActionStatus = Literal["proposed", "approved", "held", "done", "cancelled"]
ACTION_STATUSES: tuple[ActionStatus, ...] = get_args(ActionStatus)
OPEN_ACTION: frozenset[ActionStatus] = frozenset({"proposed", "approved"})
ActionOp = Literal["approve", "release", "done", "cancel"]
ACTION_OPS: tuple[ActionOp, ...] = get_args(ActionOp)

# Corrections: a reviewer replaces a claim with a statement of their own, or retracts it.
CorrectionKind = Literal["replace", "retract"]
CORRECTION_KINDS: tuple[CorrectionKind, ...] = get_args(CorrectionKind)
# As stored: a conflict resolved by keeping one side is recorded as a 'supersede' correction
# of the other side (no reviewer fragment: the kept claim's own source is the evidence).
CorrectionNodeKind = Literal["replace", "retract", "supersede"]
CORRECTION_NODE_KINDS: tuple[CorrectionNodeKind, ...] = get_args(CorrectionNodeKind)
# What an apply answers: a repeat of an applied correction is not an error.
ApplyStatus = Literal["applied", "already_applied"]
# Under ``independent``, a claim from the corrected claim's own source does not count as
# alternative support for it (support.py).
SupportPolicy = Literal["independent", "any"]
SUPPORT_POLICIES: tuple[SupportPolicy, ...] = get_args(SupportPolicy)

# Why a decision fell, per reason (support.relabel), and why it was flagged, on the decision.
FlagReasonType = Literal["premise_lost", "upstream_fell"]
ReviewReasonType = Literal["correction", "recheck", "upstream_rejected", "rejected",
                           "no_evidence", "sources_disagree", "conflict_resolved",
                           "source_revised", "erasure"]

# Conflicts between sources (docs/rules.md, rule 9).
ConflictStatus = Literal["open", "resolved", "dismissed"]
CONFLICT_STATUSES: tuple[ConflictStatus, ...] = get_args(ConflictStatus)
# What a conflicts list may ask for: one status, or all of them.
ConflictStatusFilter = Literal["open", "resolved", "dismissed", "all"]
CONFLICT_STATUS_FILTERS: tuple[ConflictStatusFilter, ...] = get_args(ConflictStatusFilter)
ConflictKind = Literal["date", "time", "number", "amount", "place", "person", "other"]
CONFLICT_KINDS: tuple[ConflictKind, ...] = get_args(ConflictKind)
# What a judge says of two statements: only "contradicts" raises a conflict.
Verdict = Literal["contradicts", "compatible", "same_fact"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
# How a conflict is resolved: keep one side, or dismiss (both hold).
Resolution = Literal["keep", "dismiss"]
RESOLUTIONS: tuple[Resolution, ...] = get_args(Resolution)
# What closed a conflict whose other sides were superseded or retired by something else: a
# correction, the resolution of another conflict, a new version of a source, or an erasure;
# or (merged) another conflict over the same fact it was joined into (pairs raised before a
# conflict was a dispute over one fact, migrated at start-up).
SettledKind = Literal["correction", "resolution", "version", "erasure", "merged"]
SETTLED_KINDS: tuple[SettledKind, ...] = get_args(SettledKind)
# The kind of a value a statement gives, as the detector reads it (facts/values.py).
ValueKind = Literal["date", "time", "duration", "number", "amount", "percentage", "place",
                    "person", "organisation"]
# What a new version does to a claim its text no longer holds (versions.py).
RetiredStatus = Literal["superseded", "rejected"]

# Sources: what ingest answers, and how far each fragment's extraction got.
# What a source is: pasted text, a conversation (its messages are its fragments) or a file
# read to text (docs/rules.md, rule 11). A source stored without a kind is text.
SourceKind = Literal["text", "conversation", "file"]
SOURCE_KINDS: tuple[SourceKind, ...] = get_args(SourceKind)
# How a workspace takes a newer statement by the same speaker that contradicts an older one:
# a conflict for a reviewer (review, the default), or the newer supersedes the older at once
# (latest_wins). A workspace stored without the setting reviews.
UpdatesPolicy = Literal["review", "latest_wins"]
UPDATES_POLICIES: tuple[UpdatesPolicy, ...] = get_args(UpdatesPolicy)
# Erasures (docs/rules.md, rule 22). What an erasure removes, by the kind of target it names.
ErasureKind = Literal["source", "version", "message", "claim", "speaker", "text", "request"]
ERASURE_KINDS: tuple[ErasureKind, ...] = get_args(ErasureKind)
# A speaker's request waits for a reviewer (requested), who applies or declines it; any
# other erasure is applied when it is written.
ErasureStatus = Literal["requested", "applied", "declined"]
ERASURE_STATUSES: tuple[ErasureStatus, ...] = get_args(ErasureStatus)
# What a list of erasures may ask for: one status, or all of them.
ErasureStatusFilter = Literal["requested", "applied", "declined", "all"]
ERASURE_STATUS_FILTERS: tuple[ErasureStatusFilter, ...] = get_args(ErasureStatusFilter)
# What the MCP tool forget did: filed a request, previewed, or applied (once or again).
ForgetStatus = Literal["requested", "preview", "applied", "already_applied"]
# Whether FalkorDB's files still hold what an applied erasure or a workspace deletion
# removed from the graph (pending until a rewrite that began after it has finished everywhere).
DiskState = Literal["pending", "clean"]
DISK_STATES: tuple[DiskState, ...] = get_args(DiskState)
# How a workspace takes a speaker's request to forget: a request for a reviewer (review, the
# default), or applied at once (apply). A workspace stored without the setting reviews.
ForgetRequests = Literal["review", "apply"]
FORGET_REQUESTS: tuple[ForgetRequests, ...] = get_args(ForgetRequests)
IngestStatus = Literal["created", "versioned", "unchanged", "extracted", "preview"]
FragmentExtraction = Literal["done", "failed", "skipped", "none"]
# A fragment whose extraction did not run, or failed: what re-extraction picks up.
PENDING_EXTRACTION: frozenset[FragmentExtraction] = frozenset({"failed", "skipped"})
# Why a candidate claim was not kept (evidence.py, ingest.py). A fragment whose answer was no
# JSON object of claims (asked twice) counts once as invalid_output; one whose answer the
# token limit cut before it was whole, once as cut_at_max_tokens.
DropReason = Literal[
    "quote_not_found", "statement_not_in_quote", "duplicate", "invalid_output",
    "cut_at_max_tokens", "over_limit"
]
DROP_REASONS: tuple[DropReason, ...] = get_args(DropReason)

# Agent runs. An open run is driven from outside (MCP), one tool call per request.
RunStatus = Literal["open", "completed", "failed", "expired"]
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)
# Why the evidence gate dropped a cited claim id (agents/gate.py, agents/run.py).
GateDropReason = Literal["not_searched", "not_retrieved", "unknown", "superseded_during_run"]
# Who made a model call, as recorded on the run or the source version.
ModelRole = Literal["extractor", "analyst", "coordinator", "run", "conflict_judge",
                   "embedder"]
# How the gateway asks for JSON, richest first: a json_schema; a json_object carrying the
# schema (servers that constrain json_object by a schema of their own, llama-cpp-python's);
# a plain json_object. A gateway that refuses one is asked with the next.
ResponseFormat = Literal["json_schema", "json_object_schema", "json_object"]
RESPONSE_FORMATS: tuple[ResponseFormat, ...] = get_args(ResponseFormat)

# Search (docs/rules.md, rule 3): by words, by meaning, or both fused (the default).
SearchMode = Literal["hybrid", "text", "vector"]
SEARCH_MODES: tuple[SearchMode, ...] = get_args(SearchMode)
# How a search hit was found: by its words, by its meaning, by both, or only as a neighbour
# (the claim quoted next to a hit in its source).
FoundMatch = Literal["words", "meaning", "both", "neighbour"]
# A workspace's claim vectors against the server's model: ready (the same model), empty (no
# vector yet), stale (another model's: search by meaning waits for a re-embed), off.
SpaceState = Literal["ready", "empty", "stale", "off"]

# Keys and roles (roles.py says what each may do).
KeyRole = Literal["reader", "agent", "reviewer"]
KEY_ROLES: tuple[KeyRole, ...] = get_args(KeyRole)
Role = Literal["admin", "reviewer", "agent", "reader"]

# The graph. Every node label of a workspace graph has an ``id`` with a unique constraint.
NodeLabel = Literal["Workspace", "Source", "SourceVersion", "SourceFragment", "Claim",
                    "Correction", "Conflict", "AgentRun", "Handoff", "Decision", "Action",
                    "AuditEvent", "Erasure"]
NODE_LABELS: tuple[NodeLabel, ...] = get_args(NodeLabel)
EdgeType = Literal["HAS_VERSION", "HAS_FRAGMENT", "SUPPORTED_BY", "CORRECTS", "SUPERSEDES",
                   "HAS_HANDOFF", "PRODUCED", "USED_CLAIM", "DEPENDS_ON", "REQUIRES",
                   "BETWEEN", "RESOLVES", "SAME_FACT"]
EDGE_TYPES: tuple[EdgeType, ...] = get_args(EdgeType)
# The labels at the two ends of the edges a correction's region is read through. Queries
# follow these edges without naming the labels (each label check costs FalkorDB a matrix
# operation), so a restore refuses an edge of these types between other labels.
EDGE_ENDS: dict[EdgeType, tuple[NodeLabel, NodeLabel]] = {
    "USED_CLAIM": ("Decision", "Claim"),
    "DEPENDS_ON": ("Decision", "Decision"),
    "REQUIRES": ("Action", "Decision"),
    # Two claims a check found to state the same fact in other words (memory/checks.py).
    "SAME_FACT": ("Claim", "Claim"),
}
# What the product view of the graph draws (projection.py), and which view is asked for.
GraphViewName = Literal["product", "internal"]


Word = TypeVar("Word", bound=str)


def as_word(words: tuple[Word, ...], value: object) -> Word:
    """``value`` as the word of the vocabulary ``words`` it is (typed as that vocabulary);
    ValueError when it is none of them."""
    for w in words:
        if value == w:
            return w
    raise ValueError(f"{value!r} is not one of {', '.join(words)}")
