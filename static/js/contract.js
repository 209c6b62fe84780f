// @ts-check
/* Made by `python -m scorekeeper.web.contract` from scorekeeper/web/contract.py: do not edit.
 * The names the server and the phone share, and the shapes of what passes between them. */

/**
 * A player as their tile shows them. Every part a tile shows is decided here, once: the
 * @typedef {{
  name: string;
  name_fit: string;
  lives: number;
  status: string;
  out: boolean;
  tappable: boolean;
  label: string;
  label_fit: string;
  deals: boolean;
  tokens: Array<boolean>;
  count: string;
  coins: string | null;
  said: string;
}} SeatView
 */
/**
 * What the table shows after a round: every word of it, in the table's language.
 * @typedef {{
  heading: string;
  next_round: number;
  rounds: number;
  start_lives: number;
  game_over: boolean;
  dealer: string;
  deals_line: Array<string>;
  pot: string;
  winner: string | null;
  wins_words: Array<string>;
  result_words: string;
  seats: Array<SeatView>;
  deals_word: string;
  headline: string;
  story: Array<string>;
  story_heading: string;
  saved: string;
  waiting: string;
  record: string;
  save: string;
}} TableView
 */
/**
 * The round the engine leaves to the server (refused, or the table's to decide), and why.
 * @typedef {{
  round: number;
  why: string;
  field: string;
  refused: boolean;
}} Stopped
 */
/**
 * A round the engine played: the table after it, and the state the server would store.
 * @typedef {{
  view: TableView;
  state: Record<string, unknown>;
  round: Record<string, unknown>;
}} Played
 */
/**
 * The engine's answer: the table before the rounds (when none is played), then after each.
 * @typedef {{
  before: TableView | null;
  played: Array<Played>;
  stopped: Stopped | null;
}} PhoneAnswer
 */
/**
 * What the phone asks its engine: the rounds, played from the table stored with the game.
 * @typedef {{
  rules: Record<string, unknown>;
  rules_version: number;
  names: Array<string>;
  state: Record<string, unknown>;
  rounds: Array<Record<string, Array<string>>>;
}} PhonePayload
 */
/**
 * A round another phone recorded since a stale tap's table, as the phone shows it.
 * @typedef {{
  number: number;
  tap: string;
  tapped: string;
  headline: string;
}} TheirRound
 */
/**
 * Why a waiting round was not saved, and what the table holds instead.
 * @typedef {{
  why: string;
  version: number;
  theirs: Array<TheirRound>;
}} Refusal
 */
/**
 * A round recorded on this phone that has not reached Knock yet (static/js/outbox.js).
 * @typedef {{
  id: string;
  url: string;
  body: string;
  number: number;
  tapped: string;
  headline: string;
  refused?: Refusal;
}} OutboxEntry
 */
/**
 * A game this phone started without a connection: how to start it on the server.
 * @typedef {{
  url: string;
  body: string;
  refused?: string;
  after?: string;
}} Start
 */
/**
 * @typedef {{
  runtime: string;
  stdlib: string;
  bundle: string;
  language: string;
}} WorkerStart
 */
/**
 * @typedef {{
  start: WorkerStart;
}} ToWorkerStart
 */
/**
 * @typedef {{
  id: number;
  play: string;
}} ToWorkerPlay
 */
/**
 * @typedef {{
  ready: string;
  ms: number;
  warm: boolean;
}} FromWorkerReady
 */
/**
 * @typedef {{
  failed: string;
  id?: number;
}} FromWorkerFailed
 */
/**
 * @typedef {{
  id: number;
  answer: string;
}} FromWorkerAnswer
 */
/**
 * The started engine is kept for the next start: its packed size in bytes.
 * @typedef {{
  kept: number;
}} FromWorkerKept
 */
/**
 * A fault the engine works on past (its snapshot not kept): reported, nothing stops.
 * @typedef {{
  fault: string;
}} FromWorkerFault
 */
/**
 * What a phone reports of a fault (static/js/faults.js): no key, no name, no page URL.
 * @typedef {{
  kind: "error" | "rejection" | "outbox" | "engine" | "csp";
  message: string;
  where: string;
  release: string;
}} Fault
 */

export const NAMES = Object.freeze({
  "headers": {
    "outcome": "Knock-Tap",
    "version": "Knock-Version",
    "theirs": "Knock-Their-Rounds",
    "why": "Knock-Why",
    "madeOnPhone": "Knock-Made-On-Phone"
  },
  "outcomes": [
    "saved",
    "already",
    "stale",
    "refused"
  ],
  "proxyDown": [
    502,
    503,
    504
  ],
  "caches": {
    "pages": "pages",
    "files": "files-",
    "engine": "engine-",
    "snapshot": "snapshot"
  },
  "storage": {
    "outbox": "knock-outbox",
    "theme": "knock-theme",
    "awake": "knock-awake",
    "vibrate": "knock-vibrate",
    "cardsOpen": "knock-cards-open",
    "installHint": "knock-install-hint"
  },
  "locks": {
    "outbox": "knock-outbox",
    "sender": "knock-sender"
  },
  "fields": {
    "confirm": "confirm",
    "tapId": "client_id",
    "version": "version"
  },
  "mostWaiting": 200,
  "tableMarks": [
    "<!--knock:table-->",
    "<!--/knock:table-->"
  ]
});
