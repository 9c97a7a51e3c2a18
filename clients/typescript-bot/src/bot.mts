// A bot written only against the types openapi-typescript generates from openapi.yaml and the
// openapi-fetch client: no hand-written API type, no cast. It becomes a player, plays one game of
// each ruleset to the end as that player against a running engine, and prints one JSON line with
// what happened.
//
//     node build/typescript-bot/bot.mjs BASE_URL SPEC_PATH
//
// First it becomes a player (POST /v1/players: a credential, the player's bearer). For each game
// it creates the game with the player's credential (the game is the player's), fills every seat
// but one with the engine's bots (the host token adds them), takes the last seat itself with the
// player's credential (the seat is the player's), and moves with the seat's token until the game
// is over, choosing each move from GET /v1/games/{game_id}/actions: a move built from the action
// space where it knows how, else the engine's `default`. Then it reads the score and the event
// feed. At the end it reads the player's finished games (GET /v1/me/games, page after page), its
// profile (GET /v1/players/{player_id}) and the leaderboard of each ruleset it played.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { SpecValidator } from "./validate.mjs";

const MAX_ROUNDS = 3000; // every ruleset ends well within this many moves of the bot

class Refused extends Error {
  constructor(readonly status: number, readonly code: string, detail: string) {
    super(`${status} ${code}: ${detail}`);
  }
}

// the body of a success, or Refused with the problem's stable code
function ok<T>(result: { data?: T; error?: components["schemas"]["Problem"]; response: Response }): T {
  if (result.error !== undefined) {
    throw new Refused(result.response.status, result.error.code, result.error.detail);
  }
  if (result.data === undefined) {
    throw new Error(`${result.response.status} from ${result.response.url}: no body`);
  }
  return result.data;
}

// a legal move made from the first action space this bot knows how to fill in
function fromSpace(spaces: components["schemas"]["Actions"]["moves"]): components["schemas"]["Move"] | null {
  for (const space of spaces) {
    switch (space.type) {
      case "nominate": {
        const seat = space.seats[0];
        if (seat !== undefined) return { type: "nominate", seat };
        break;
      }
      case "fire_director": {
        const director = space.directors.at(-1);
        if (director !== undefined) return { type: "fire_director", director };
        break;
      }
      case "choose_layout": {
        const layout = space.layouts[0];
        if (layout !== undefined) return { type: "choose_layout", layout };
        break;
      }
      case "place": {
        for (const option of space.cards) {
          const cell = option.cells[0];
          if (cell !== undefined) return { type: "place", card: option.card, x: cell.x, y: cell.y };
        }
        break;
      }
      case "no_challenge":
        return { type: "no_challenge", word_id: space.word_id };
      default:
        break;
    }
  }
  return null;
}

async function play(baseUrl: string, validator: SpecValidator, player: { Authorization: string },
  body: paths["/v1/games"]["post"]["requestBody"]["content"]["application/json"],
  bot: NonNullable<components["schemas"]["Join"]["bot"]>) {
  const api = createClient<paths>({ baseUrl });
  api.use(validator.middleware());
  // created with the player's credential: the game is the player's
  const created = ok(await api.POST("/v1/games", { body, headers: player }));
  const game_id = created.game.id;
  const path = { game_id };
  const host = { Authorization: `Bearer ${created.host_token}` };
  for (let n = 1; n < body.players; n++) {
    ok(await api.POST("/v1/games/{game_id}/seats", { params: { path }, headers: host, body: { name: `Bot ${n}`, bot } }));
  }
  // the last seat, taken with the player's credential: the seat is the player's
  const joined = ok(await api.POST("/v1/games/{game_id}/seats", { params: { path }, headers: player, body: { name: "TypeScripter" } }));
  if (joined.token === null) {
    throw new Error("a player's seat came without a token");
  }
  const me = { Authorization: `Bearer ${joined.token}` };
  let game = joined.game;
  let moves = 0;
  let built = 0;
  const refusals: string[] = [];
  for (let round = 0; game.status !== "finished"; round++) {
    if (round >= MAX_ROUNDS) {
      throw new Error(`${game_id} not finished after ${MAX_ROUNDS} rounds`);
    }
    const actions = ok(await api.GET("/v1/games/{game_id}/actions", { params: { path }, headers: me }));
    const made = fromSpace(actions.moves);
    const move = made ?? actions.default ?? null;
    if (move === null) {
      // nothing to do now: others think (Word Jam's bots), or a window must lapse
      ok(await api.POST("/v1/games/{game_id}/resolve", { params: { path }, headers: me }));
      game = ok(await api.GET("/v1/games/{game_id}", { params: { path }, headers: me }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const sent = await api.POST("/v1/games/{game_id}/moves", { params: { path }, headers: me, body: move });
    if (sent.error !== undefined) {
      // a bot moved first or a window closed between reading and moving: read again
      if (sent.response.status !== 409 && sent.response.status !== 412) {
        throw new Refused(sent.response.status, sent.error.code, sent.error.detail);
      }
      refusals.push(sent.error.code);
      game = ok(await api.GET("/v1/games/{game_id}", { params: { path }, headers: me }));
      continue;
    }
    moves += 1;
    built += made === null ? 0 : 1;
    game = sent.data.game;
  }
  const score = ok(await api.GET("/v1/games/{game_id}/score", { params: { path }, headers: me }));
  const feed = ok(await api.GET("/v1/games/{game_id}/events", { params: { path, query: { after: 0 } }, headers: me }));
  if (typeof feed === "string") {
    throw new Error("asked for the JSON feed, got an event stream");
  }
  return {
    ruleset: body.ruleset,
    game_id,
    status: game.status,
    moves,
    built,
    refusals,
    winners: score.winners,
    totals: score.players.map((player) => player.total),
    events: feed.events.length,
    last_event: feed.events.at(-1)?.type ?? null,
  };
}

// errors are problem JSON whose `code` is stable: a program branches on it, never on the text
async function expectNoSuchGame(baseUrl: string, validator: SpecValidator): Promise<void> {
  const api = createClient<paths>({ baseUrl });
  api.use(validator.middleware());
  const missing = await api.GET("/v1/games/{game_id}", { params: { path: { game_id: "no-such-game" } } });
  if (missing.error?.code !== "game_not_found" || missing.response.status !== 404) {
    throw new Error(`a game that does not exist: ${missing.response.status} ${missing.error?.code}`);
  }
}

// a new anonymous player: its credential, sent as the bearer, is the player
async function becomePlayer(baseUrl: string, validator: SpecValidator, name: string) {
  const api = createClient<paths>({ baseUrl });
  api.use(validator.middleware());
  const made = ok(await api.POST("/v1/players", { body: { name } }));
  const headers = { Authorization: `Bearer ${made.token}` };
  const me = ok(await api.GET("/v1/me", { headers }));
  if (me.player.id !== made.player.id) {
    throw new Error(`GET /v1/me is ${me.player.id}, not the player made, ${made.player.id}`);
  }
  return { player: made.player, headers };
}

// what the API says of the player after its games: its finished games, profile and board places
async function playerReport(baseUrl: string, validator: SpecValidator, player: { Authorization: string },
  id: string, rulesets: components["schemas"]["MyGame"]["ruleset"][]) {
  const api = createClient<paths>({ baseUrl });
  api.use(validator.middleware());
  const mine: components["schemas"]["MyGame"][] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    if (pages > 100) throw new Error("GET /v1/me/games never ended its pages");
    const page = ok(await api.GET("/v1/me/games", {
      params: { query: { status: "finished", limit: 2, cursor } }, headers: player,
    }));
    mine.push(...page.games);
    if (page.next === null) break;
    // the next page's link carries its cursor: the operation takes it as a parameter
    cursor = new URL(page.next, baseUrl).searchParams.get("cursor") ?? undefined;
  }
  const profile = ok(await api.GET("/v1/players/{player_id}", { params: { path: { player_id: id } } }));
  const boards = [];
  for (const ruleset of rulesets) {
    const board = ok(await api.GET("/v1/leaderboards/{ruleset}", { params: { path: { ruleset }, query: { limit: 100 } } }));
    boards.push({
      ruleset: board.ruleset,
      place: board.players.find((row) => row.player.id === id)?.place ?? null,
      total: board.total,
      min_games: board.min_games,
    });
  }
  return {
    mine: mine.map((game) => ({
      id: game.id, ruleset: game.ruleset, status: game.status, seat: game.seat, host: game.host,
      rated: game.rated, won: game.won,
    })),
    profile: {
      id: profile.player.id,
      name: profile.player.name,
      games: profile.games,
      ratings: profile.ratings.map((rating) => ({ ruleset: rating.ruleset, rating: rating.rating, games: rating.games })),
      recent: profile.recent.map((result) => ({ ruleset: result.ruleset, game: result.game, rank: result.rank })),
    },
    boards,
  };
}

async function main(baseUrl: string, specPath: string): Promise<void> {
  const validator = new SpecValidator(specPath);
  await expectNoSuchGame(baseUrl, validator);
  const { player, headers } = await becomePlayer(baseUrl, validator, "TypeScripter");
  const games = [
    await play(baseUrl, validator, headers, { ruleset: "turandot", players: 4, seed: 21, options: { bot_seconds: 0 } }, "greedy"),
    // Word Jam's windows at their shortest: a window nobody acts in lapses after a second
    await play(baseUrl, validator, headers, {
      ruleset: "wordjam", players: 5, seed: 22,
      options: { bot_seconds: 0, think_seconds: 1, bet_seconds: 1, thief_seconds: 1, challenge_seconds: 1, vote_seconds: 1 },
    }, "wordsmith"),
    await play(baseUrl, validator, headers, { ruleset: "muzicando", players: 4, seed: 23, options: { bot_seconds: 0, auction: true } }, "greedy"),
  ];
  const report = await playerReport(baseUrl, validator, headers, player.id, games.map((game) => game.ruleset));
  console.log(JSON.stringify({
    games, player: { id: player.id, name: player.name }, ...report,
    checked: validator.checked, violations: validator.violations,
  }));
}

const [baseUrl, specPath] = process.argv.slice(2);
if (baseUrl === undefined || specPath === undefined) {
  console.error("usage: node bot.mjs BASE_URL SPEC_PATH");
  process.exit(2);
}
await main(baseUrl, specPath);
