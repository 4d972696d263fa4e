// Tic-tac-toe, written for the rgw team corpus.
// A move is one tag, the cell marked: columns a-c, rows 1-3 ("b2").
// x moves first; three in a row wins (100 against 0), a full board draws.

type Player = { x, o };
type Score = { 0, 50, 100 };
type Cell = { a1, b1, c1, a2, b2, c2, a3, b3, c3 };
type Mark = { empty, x, o };
const other: Player -> Player = { x: o, :x };
var board: Cell -> Mark = { :empty };
var me: Player = x;
var cell: Cell = a1;
var goals: Goals = { :50 };

begin, turn: ;
turn, play: player = PlayerOrSystem(me);
play, picked: cell = Cell(*);
picked, free: board[cell] == empty;
free, marked: $$ cell;
marked, apply: player = keeper;
apply, placed: board[cell] = Mark(me);
placed, win: ? line -> lineFound;
placed, noWin: ! line -> lineFound;
noWin, next: ? freeCell -> freeCellFound;
noWin, draw: ! freeCell -> freeCellFound;
next, turn: me = other[me];
win, win1: goals[me] = 100;
win1, win2: goals[other[me]] = 0;
win2, end: player = keeper;
draw, end: player = keeper;

// Some cell is still empty.
freeCell, freeCellPicked: cell = Cell(*);
freeCellPicked, freeCellFound: board[cell] == empty;

// The player who just moved owns a whole line.
line, line0a: board[a1] == Mark(me);
line0a, line0b: board[b1] == Mark(me);
line0b, lineFound: board[c1] == Mark(me);
line, line1a: board[a2] == Mark(me);
line1a, line1b: board[b2] == Mark(me);
line1b, lineFound: board[c2] == Mark(me);
line, line2a: board[a3] == Mark(me);
line2a, line2b: board[b3] == Mark(me);
line2b, lineFound: board[c3] == Mark(me);
line, line3a: board[a1] == Mark(me);
line3a, line3b: board[a2] == Mark(me);
line3b, lineFound: board[a3] == Mark(me);
line, line4a: board[b1] == Mark(me);
line4a, line4b: board[b2] == Mark(me);
line4b, lineFound: board[b3] == Mark(me);
line, line5a: board[c1] == Mark(me);
line5a, line5b: board[c2] == Mark(me);
line5b, lineFound: board[c3] == Mark(me);
line, line6a: board[a1] == Mark(me);
line6a, line6b: board[b2] == Mark(me);
line6b, lineFound: board[c3] == Mark(me);
line, line7a: board[c1] == Mark(me);
line7a, line7b: board[b2] == Mark(me);
line7b, lineFound: board[a3] == Mark(me);
