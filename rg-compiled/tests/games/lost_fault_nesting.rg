// A review's trap: the check t0 has the shape of "P or not P", but checks
// itself: the engine nests it without end and stops with a fault
// (`faultless` must refuse checks that nest themselves).
type Player = { one };
type Score = { 0 };
begin, k1: ;
k1, k2: ? t0 -> t2;
k2, p0: player = one;
k1, k3: ! t0 -> t2;
k3, end: player = keeper;
p0, q0: player = keeper;
q0, end: player = keeper;
t0, t2: ? t0 -> t2;
t0, t2: ! c0 -> c2;
c0, c2: ? t0 -> t2;
