// A one-player game on a line of six squares: the player slides a piece
// along a ray to the right or to the left over empty squares (or is
// done), and the keeper marks the square it stopped on. The square off
// the board (null) is blocked, so no ray comes back to a square.
type Player = { one };
type Score = { 0 };
type Piece = { e, x };
type Sq = { null, s1, s2, s3, s4, s5, s6 };
const right: Sq -> Sq = { :null, s1: s2, s2: s3, s3: s4, s4: s5, s5: s6 };
const left: Sq -> Sq = { :null, s2: s1, s3: s2, s4: s3, s5: s4, s6: s5 };
var board: Sq -> Piece = { :e, null: x, s4: x };
var pos: Sq = s2;
begin, p: player = one;
p, f: $ done;
f, end: player = keeper;
p, a: pos = right[pos];
a, a1: board[pos] == e;
a1, stop: $$ pos;
a1, a: pos = right[pos];
p, b: pos = left[pos];
b, b1: board[pos] == e;
b1, stop: $$ pos;
b1, b: pos = left[pos];
stop, k: player = keeper;
k, k1: board[pos] = x;
k1, p: player = one;
k1, k2: pos == null;
k2, p: player = one;
