// A review's trap: the check t0 reads marks[pos[1]], and pos is written
// whole (pos = reset) before it is asked: pos[1] is then null, not a key
// of marks (`ever_held` must count writes of a map covering the slot).
type Player = { one };
type Score = { 0 };
type Piece = { e, x, null };
type Square = { a, b, c };
type SquareOrNull = { null, a, b, c };
const reset: Bool -> SquareOrNull = { :null };
const start: Bool -> SquareOrNull = { :a };
var board: SquareOrNull -> Piece = { :e, null: null };
var marks: Square -> Piece = { :e };
var pos: Bool -> SquareOrNull = { :a };
var sq: SquareOrNull = a;
begin, p0: player = one;
p0, n1: sq = Square(*);
n1, n1b: board[sq] == e;
n1b, n2: marks[pos[1]] == e;
n2, n3: $$ sq;
n3, k0: player = keeper;
p0, n4: ! c0 -> c2;
n4, n5: $ pass;
n5, end: player = keeper;
k0, k0b: board[sq] = x;
k0b, k1: pos = reset;
k1, k2: ? t0 -> t2;
k2, k2b: pos = start;
k2b, p0: player = one;
k1, k3: ! t0 -> t2;
k3, end: player = keeper;
c0, c1: sq = Square(*);
c1, c1b: board[sq] == e;
c1b, c2: marks[pos[1]] == e;
t0, t1: sq = Square(*);
t1, t1b: board[sq] == e;
t1b, t2: marks[pos[1]] == e;
t0, t2: ! c0 -> c2;
