"""Tournament services: every write goes through here; API views, pages, commands and Celery
tasks stay thin and call these functions.

All functions take keyword-only arguments, own their transaction (``@transaction.atomic``),
lock the tournament row before changing it, and raise the errors of ``hkk_tournament.errors``
(``NotFound``, ``Conflict``, ``InvalidState``, ``ValidationFailed``, each with a stable
``code``, a translated ``message``, ``params`` and an HTTP ``status``). Work for Celery is
enqueued through ``jobs`` after the commit; services never import the tasks.

Modules: ``tournaments`` (create, open registration, planned rounds, start/finish),
``registration`` (entries: players, pair teams, late entries, drops, deck overrides),
``deck_lists`` (deck list submission, the pair rule-card check, pairable entries),
``options`` (event options changed after creation), ``rounds`` (Swiss pairing, swaps,
publish, finish), ``event_admin`` (details, template, reopen), ``round_fixes`` (discard,
unpublish, drop after pairing), ``results_archive`` (results deleted on purpose, kept and
restored), ``desk`` (check-in, re-add, list import), ``people`` (claim
codes and invitations), ``results`` (die rolls, games, corrections, first-player right),
``game_start`` (opening hand and life points per match), ``standings`` (standings, snapshot,
export, CSV), ``staff`` (co-organisers, judges, self-registration), ``reports`` (players'
result reports and disputes), ``match_results`` (match-level results from slips, no-shows),
``clock`` (the round clock), ``penalties`` (the penalty log), ``top_cut`` (single elimination after
the Swiss rounds), ``deck_checks`` (random and
chosen deck checks per round).
"""

from tournaments.services.clock import (
    clock_read,
    round_clock_extend,
    round_clock_pause,
    round_clock_resume,
    round_clock_start,
)
from tournaments.services.deck_checks import (
    deck_check_add,
    deck_check_count,
    deck_check_record,
    deck_checks_pick,
)
from tournaments.services.deck_lists import (
    PAIR_RULE_CARD_MISMATCH,
    deck_approve_unverified,
    deck_submit,
    entry_has_legal_lists,
    entry_is_pairable,
)
from tournaments.services.desk import (
    IMPORT_MAX_BYTES,
    entries_drop_not_checked_in,
    entries_import,
    entry_check_in,
    entry_readd,
    readd_needs_choice,
    same_name_entries,
)
from tournaments.services.event_admin import (
    tournament_duplicate,
    tournament_reopen,
    tournament_set_details,
)
from tournaments.services.match_results import (
    MatchOutcome,
    match_outcomes,
    match_result_record,
    outcome_games,
    report_outcomes,
)
from tournaments.services.match_rules import (
    NextRight,
    match_next_right,
    match_set_die_roll,
    match_set_game3_roll,
    match_set_reroll_agreement,
)
from tournaments.services.options import tournament_set_options
from tournaments.services.penalties import penalties_csv, penalties_of, penalty_record
from tournaments.services.people import (
    player_claim,
    player_claim_code,
    player_claim_codes_all,
    player_invite,
    player_invite_all,
)
from tournaments.services.registration import (
    entry_drop,
    entry_override_deck,
    entry_register,
    entry_register_late,
    entry_register_pair,
    entry_register_player,
)
from tournaments.services.reports import (
    match_disputes,
    result_report_confirm,
    result_report_submit,
)
from tournaments.services.results import game_correct, game_record
from tournaments.services.results_archive import round_results_restore
from tournaments.services.round_fixes import (
    MISSED_CHOICES,
    MissedChoice,
    entry_drop_and_repair,
    entry_drop_with_bye,
    round_discard,
    round_unpublish,
)
from tournaments.services.rounds import (
    pairing_candidates,
    pairing_standings,
    round_finish,
    round_pair_next,
    round_pair_next_async,
    round_publish,
    round_relaxations,
    round_swap_pairings,
)
from tournaments.services.staff import (
    entry_self_register,
    player_for_user,
    staff_appoint,
    staff_remove,
)
from tournaments.services.standings import (
    pairings_csv,
    standings_claim_recompute,
    standings_compute,
    standings_csv,
    standings_current_ranks,
    standings_inputs_changed,
    standings_refresh,
    standings_rows,
    standings_stored_rows,
    tournament_export,
)
from tournaments.services.top_cut import (
    top_cut_champion,
    top_cut_default_size,
    top_cut_next,
    top_cut_start,
)
from tournaments.services.tournaments import (
    TournamentSettings,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_set_planned_rounds,
    tournament_start,
)

__all__ = [
    "MatchOutcome",
    "TournamentSettings",
    "NextRight",
    "PAIR_RULE_CARD_MISMATCH",
    "clock_read",
    "deck_approve_unverified",
    "deck_check_add",
    "deck_check_count",
    "deck_check_record",
    "deck_checks_pick",
    "deck_submit",
    "entries_drop_not_checked_in",
    "entries_import",
    "entry_check_in",
    "entry_drop",
    "entry_drop_and_repair",
    "entry_drop_with_bye",
    "entry_has_legal_lists",
    "entry_is_pairable",
    "entry_override_deck",
    "entry_readd",
    "readd_needs_choice",
    "MissedChoice",
    "MISSED_CHOICES",
    "entry_register",
    "entry_register_late",
    "entry_register_pair",
    "entry_register_player",
    "entry_self_register",
    "game_correct",
    "game_record",
    "match_disputes",
    "match_next_right",
    "match_outcomes",
    "match_result_record",
    "match_set_die_roll",
    "match_set_game3_roll",
    "match_set_reroll_agreement",
    "outcome_games",
    "pairing_candidates",
    "pairing_standings",
    "pairings_csv",
    "penalties_csv",
    "penalties_of",
    "penalty_record",
    "player_claim",
    "player_claim_code",
    "player_claim_codes_all",
    "player_for_user",
    "player_invite",
    "player_invite_all",
    "report_outcomes",
    "result_report_confirm",
    "result_report_submit",
    "round_clock_extend",
    "round_clock_pause",
    "round_clock_resume",
    "round_clock_start",
    "round_discard",
    "round_finish",
    "round_pair_next",
    "round_pair_next_async",
    "round_publish",
    "round_relaxations",
    "round_results_restore",
    "round_swap_pairings",
    "round_unpublish",
    "same_name_entries",
    "IMPORT_MAX_BYTES",
    "staff_appoint",
    "staff_remove",
    "standings_claim_recompute",
    "standings_compute",
    "standings_csv",
    "standings_current_ranks",
    "standings_inputs_changed",
    "standings_refresh",
    "standings_rows",
    "standings_stored_rows",
    "top_cut_champion",
    "top_cut_default_size",
    "top_cut_next",
    "top_cut_start",
    "tournament_create",
    "tournament_duplicate",
    "tournament_export",
    "tournament_finish",
    "tournament_open_registration",
    "tournament_reopen",
    "tournament_set_details",
    "tournament_set_options",
    "tournament_set_planned_rounds",
    "tournament_start",
]
