// Breakthrough on a 6x6 board, written for the rgw team corpus.
// Files a-f, ranks 1-6. White starts on ranks 1-2 and moves first, towards
// rank 6; black starts on ranks 5-6 and moves towards rank 1. A pawn steps
// straight forward to an empty square, or diagonally forward to a square
// without a pawn of its own colour (capturing there). Reaching the far rank
// or capturing every enemy pawn wins; a player without a move loses.
// A move is two tags: the start square, then the target square ("b2 b3").
// The same game is corpus/kif/breakthrough.kif (and the RBG/HRG versions).

type Player = { white, black };
type Score = { 0, 100 };
type Piece = { empty, wp, bp };
type Square = { a1, b1, c1, d1, e1, f1, a2, b2, c2, d2, e2, f2, a3, b3, c3, d3, e3, f3, a4, b4, c4, d4, e4, f4, a5, b5, c5, d5, e5, f5, a6, b6, c6, d6, e6, f6 };
type SquareOrOff = { off, a1, b1, c1, d1, e1, f1, a2, b2, c2, d2, e2, f2, a3, b3, c3, d3, e3, f3, a4, b4, c4, d4, e4, f4, a5, b5, c5, d5, e5, f5, a6, b6, c6, d6, e6, f6 };
type Step = Square -> SquareOrOff;
const whiteAhead: Step = { :off, a1: a2, b1: b2, c1: c2, d1: d2, e1: e2, f1: f2, a2: a3, b2: b3, c2: c3, d2: d3, e2: e3, f2: f3, a3: a4, b3: b4, c3: c4, d3: d4, e3: e4, f3: f4, a4: a5, b4: b5, c4: c5, d4: d5, e4: e5, f4: f5, a5: a6, b5: b6, c5: c6, d5: d6, e5: e6, f5: f6 };
const whiteLeft: Step = { :off, b1: a2, c1: b2, d1: c2, e1: d2, f1: e2, b2: a3, c2: b3, d2: c3, e2: d3, f2: e3, b3: a4, c3: b4, d3: c4, e3: d4, f3: e4, b4: a5, c4: b5, d4: c5, e4: d5, f4: e5, b5: a6, c5: b6, d5: c6, e5: d6, f5: e6 };
const whiteRight: Step = { :off, a1: b2, b1: c2, c1: d2, d1: e2, e1: f2, a2: b3, b2: c3, c2: d3, d2: e3, e2: f3, a3: b4, b3: c4, c3: d4, d3: e4, e3: f4, a4: b5, b4: c5, c4: d5, d4: e5, e4: f5, a5: b6, b5: c6, c5: d6, d5: e6, e5: f6 };
const blackAhead: Step = { :off, a2: a1, b2: b1, c2: c1, d2: d1, e2: e1, f2: f1, a3: a2, b3: b2, c3: c2, d3: d2, e3: e2, f3: f2, a4: a3, b4: b3, c4: c3, d4: d3, e4: e3, f4: f3, a5: a4, b5: b4, c5: c4, d5: d4, e5: e4, f5: f4, a6: a5, b6: b5, c6: c5, d6: d5, e6: e5, f6: f5 };
const blackLeft: Step = { :off, a2: b1, b2: c1, c2: d1, d2: e1, e2: f1, a3: b2, b3: c2, c3: d2, d3: e2, e3: f2, a4: b3, b4: c3, c4: d3, d4: e3, e4: f3, a5: b4, b5: c4, c5: d4, d5: e4, e5: f4, a6: b5, b6: c5, c6: d5, d6: e5, e6: f5 };
const blackRight: Step = { :off, b2: a1, c2: b1, d2: c1, e2: d1, f2: e1, b3: a2, c3: b2, d3: c2, e3: d2, f3: e2, b4: a3, c4: b3, d4: c3, e4: d3, f4: e3, b5: a4, c5: b4, d5: c4, e5: d4, f5: e4, b6: a5, c6: b5, d6: c5, e6: d5, f6: e5 };
const ahead: Player -> Step = { white: whiteAhead, :blackAhead };
const aheadLeft: Player -> Step = { white: whiteLeft, :blackLeft };
const aheadRight: Player -> Step = { white: whiteRight, :blackRight };
const own: Player -> Piece = { white: wp, :bp };
const enemy: Player -> Piece = { white: bp, :wp };
const other: Player -> Player = { white: black, :white };
const whiteGoal: Square -> Bool = { :0, a6: 1, b6: 1, c6: 1, d6: 1, e6: 1, f6: 1 };
const blackGoal: Square -> Bool = { :0, a1: 1, b1: 1, c1: 1, d1: 1, e1: 1, f1: 1 };
const goalRank: Player -> Square -> Bool = { white: whiteGoal, :blackGoal };
var board: Square -> Piece = { :empty, a1: wp, b1: wp, c1: wp, d1: wp, e1: wp, f1: wp, a2: wp, b2: wp, c2: wp, d2: wp, e2: wp, f2: wp, a5: bp, b5: bp, c5: bp, d5: bp, e5: bp, f5: bp, a6: bp, b6: bp, c6: bp, d6: bp, e6: bp, f6: bp };
var me: Player = white;
var from: Square = a1;
var to: SquareOrOff = off;

// The keeper checks that the player to move can move, then hands over.
begin, turn: ;
turn, canMove: ? anyMove -> anyMoveFound;
turn, stuck: ! anyMove -> anyMoveFound;
canMove, pick: player = PlayerOrSystem(me);

// The player's move: a pawn of theirs, then one of three steps.
pick, picked: from = Square(*);
picked, own1: board[from] == own[me];
own1, tagFrom: $$ from;
tagFrom, straight: to = ahead[me][from];
straight, straight1: to != off;
straight1, chosen: board[Square(to)] == empty;
tagFrom, left: to = aheadLeft[me][from];
left, left1: to != off;
left1, chosen: board[Square(to)] != own[me];
tagFrom, right: to = aheadRight[me][from];
right, right1: to != off;
right1, chosen: board[Square(to)] != own[me];
chosen, tagTo: $$ to;
tagTo, apply: player = keeper;

// The keeper applies the move and looks for a winner.
apply, moved: board[from] = empty;
moved, placed: board[Square(to)] = own[me];
placed, won: goalRank[me][Square(to)] == 1;
placed, notGoal: goalRank[me][Square(to)] != 1;
notGoal, won: ! enemyPawn -> enemyPawnFound;
notGoal, next: ? enemyPawn -> enemyPawnFound;
next, turn: me = other[me];
won, won1: goals[me] = 100;
won1, end: player = keeper;
stuck, stuck1: goals[other[me]] = 100;
stuck1, end: player = keeper;

// Reachability checks (evaluated on a copy of the state).
anyMove, anyPicked: from = Square(*);
anyPicked, anyOwn: board[from] == own[me];
anyOwn, anyStraight: to = ahead[me][from];
anyStraight, anyStraight1: to != off;
anyStraight1, anyMoveFound: board[Square(to)] == empty;
anyOwn, anyLeft: to = aheadLeft[me][from];
anyLeft, anyLeft1: to != off;
anyLeft1, anyMoveFound: board[Square(to)] != own[me];
anyOwn, anyRight: to = aheadRight[me][from];
anyRight, anyRight1: to != off;
anyRight1, anyMoveFound: board[Square(to)] != own[me];
enemyPawn, enemyPicked: from = Square(*);
enemyPicked, enemyPawnFound: board[from] == enemy[me];
