// A review's trap: the pass ! c0 copies the moves, but also their branch
// z1, from which no move can finish: the engine's move search never
// enters it, its check does, and faults there at marks[a] (`mirrors`
// must not pair a check node with a node no move search enters).
type Player = { one };
type Score = { 0 };
type Piece = { e, x, null };
type Square = { a, b, c };
type SquareOrNull = { null, a, b, c };
type Inner = { b, c };
var board: SquareOrNull -> Piece = { :e, null: null };
var marks: Inner -> Piece = { :e };
var sq: SquareOrNull = a;
begin, p0: player = one;
p0, n1: sq = Square(*);
n1, n2: board[sq] == e;
n2, n3: $$ sq;
n3, k0: player = keeper;
n1, z1: board[sq] == x;
z1, z1: marks[sq] == e;
p0, n4: ! c0 -> c2;
n4, n5: $ pass;
n5, end: player = keeper;
k0, k1: board[sq] = x;
k1, p0: player = one;
c0, c1: sq = Square(*);
c1, c2: board[sq] == e;
c1, d1: board[sq] == x;
d1, d1: marks[sq] == e;
