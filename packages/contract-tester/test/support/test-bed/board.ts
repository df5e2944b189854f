import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSpec } from '../../../src/spec/load.js';
import { BedError, BedStore, startBedServer, withResponseBug, type Bug, type BedDefinition } from './bed-server.js';

/** The board: in the shape of OAI's tictactoe example (see board.yaml). */
export const BOARD_SPEC = fileURLToPath(new URL('./board.yaml', import.meta.url));
/** The credentials it issued, by scheme. */
export const BOARD_CREDENTIALS = { apiKey: 'key-1234', bearerAuth: 'token-5678', oauth: 'oauth-9012' };

type Mark = '.' | 'X' | 'O';
type Game = { gameId: number; board: Mark[][]; winner: Mark };

function winner(board: Mark[][]): Mark {
  const lines = [
    ...board,
    ...[0, 1, 2].map((column) => board.map((row) => row[column]!)),
    [0, 1, 2].map((index) => board[index]![index]!),
    [0, 1, 2].map((index) => board[index]![2 - index]!),
  ];
  return lines.find((line) => line[0] !== '.' && line.every((mark) => mark === line[0]))?.[0] ?? '.';
}

export function boardDefinition(bug?: Bug): BedDefinition {
  const games = new BedStore<Game>(bug);
  let next = 0;
  const show = (game: Game) => withResponseBug(game, bug, 'winner', 'gameId');
  return {
    document: parseSpec(readFileSync(BOARD_SPEC, 'utf8')),
    accepts: (scheme, value) => BOARD_CREDENTIALS[scheme as keyof typeof BOARD_CREDENTIALS] === value,
    error: (status, message) => ({ status, contentType: 'text/html', body: `<p>${message.slice(0, 240).replace(/[<&]/g, '')}</p>` }),
    handlers: {
      createGame: () => {
        next += 1;
        const game: Game = { gameId: next, board: [0, 1, 2].map(() => ['.', '.', '.']), winner: '.' };
        return { status: 201, body: show(games.create(String(next), game)), headers: { Location: `/v1/games/${next}` } };
      },
      getGame: ({ params }) => ({ status: 200, body: show(games.get(String(params['gameId']))) }),
      deleteGame: ({ params }) => {
        games.delete(String(params['gameId']));
        return { status: 204 };
      },
      getSquare: ({ params }) => {
        const game = games.get(String(params['gameId']));
        const [row, column] = [params['row'] as number, params['column'] as number];
        // The planted 500: the last row of the board.
        if (bug === 'server-error' && row === 3) throw new Error('index out of range');
        return { status: 200, contentType: 'application/json', body: JSON.stringify(game.board[row - 1]![column - 1]) };
      },
      markSquare: ({ params, body }) => {
        const game = games.get(String(params['gameId']));
        const [row, column] = [params['row'] as number, params['column'] as number];
        if (game.winner !== '.') throw new BedError(409, 'the game is over');
        if (game.board[row - 1]![column - 1] !== '.' && body !== '.') throw new BedError(409, 'the square is not empty');
        game.board[row - 1]![column - 1] = body as Mark;
        game.winner = winner(game.board);
        return { status: 200, body: show(game) };
      },
    },
  };
}

export const startBoard = (bug?: Bug) => startBedServer(boardDefinition(bug), bug);
