"""The brakes of a graph (operations.md §8.1) and the check that a repair loosened none of them.

`loosened(before, after, renames)` compares the brakes of two versions of a document and returns one
line per brake the change removed or weakened (empty when none). `renames` maps ids of `before` to
the ids the change gave the same objects. Only brakes that work count: an edge or a back entry whose
ends name no node brakes nothing, so correcting it is not loosening.

Repairs are built never to loosen a brake; this check exists to catch mistakes (§8.2 item 5).
"""

from __future__ import annotations

import json

from grooph_core.ops.ids import items
from grooph_core.source.text import is_number

from grooph_core.model.graph import CRITIC_ROLES
BRAKE_STOPS = ("max-iterations", "budget", "human")


def _key(v: object) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def _first(objs: list) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for o in objs:
        if isinstance(o, dict) and isinstance(o.get("id"), str):
            out.setdefault(o["id"], o)
    return out


def _when(e: dict) -> str:
    return _key(_declared(e.get("when", "always"), ("verdict",)))


def _declared(v: object, fields: tuple[str, ...]) -> object:
    """A value with the unknown keys of an object dropped: removing an unknown key loosens nothing."""
    if isinstance(v, dict):
        return {k: v[k] for k in fields if k in v}
    return v


def _policy_kind(v: object) -> object:
    return _declared(v, ("custom",))


def _check(v: object) -> object:
    return _declared(v, ("kind", "run", "pass", "threshold"))


def _evidence(v: object) -> object:
    return _declared(v, ("kind", "ref", "note"))


def _is_person_step(n: dict) -> bool:
    return n.get("kind") == "agent" and n.get("by") == "person"


def _scope_target_exists(scope: object, nodes, edges, loops) -> bool:
    if not isinstance(scope, str) or scope == "graph":
        return True
    kind, _, x = scope.partition(":")
    return x in {"node": nodes, "edge": edges, "loop": loops}.get(kind, ())


def _numbers(stop: dict, key: str, default: float | None = None) -> float | None:
    v = stop.get(key, default)
    return float(v) if is_number(v) else None


def loosened(before: dict, after: dict, renames: dict[str, str] | None = None,
             list_renames: dict[str, dict[str, str]] | None = None) -> list[str]:
    """What the change from `before` to `after` loosened, by the table of operations.md §8.1.

    `renames` applies to ids everywhere; `list_renames` ({"policies": {"e1": "e1-2"}}) to the objects
    of one list only (a duplicated id split between an edge and a policy renames just the policy)."""
    ren = renames or {}
    # A list rename moves the brakes of the object that held the id first only when that object is
    # the one renamed. Splitting a duplicate renames a later copy (a pasted node): the first keeps the
    # id, and with it every reference and brake (issue 13), so the rename says nothing about it.
    per_list = {lst: {x: y for x, y in renamed.items() if x not in _first(items(after, lst))}
                for lst, renamed in (list_renames or {}).items()}

    def m(i: object, lst: str | None = None) -> object:
        if not isinstance(i, str):
            return i
        if lst is not None and i in per_list.get(lst, {}):
            return per_list[lst][i]
        return ren.get(i, i)

    found: list[str] = []
    bn, an = _first(items(before, "nodes")), _first(items(after, "nodes"))
    be, ae = _first(items(before, "edges")), _first(items(after, "edges"))
    bl, al = _first(items(before, "loops")), _first(items(after, "loops"))
    bp, ap = _first(items(before, "policies")), _first(items(after, "policies"))

    def live(e: dict, nodes: dict) -> bool:
        return e.get("from") in nodes and e.get("to") in nodes

    # human gates and the edges their options lead along
    for gid, g in bn.items():
        if g.get("kind") != "human-gate":
            continue
        ng = an.get(m(gid, "nodes"))
        if ng is None or ng.get("kind") != "human-gate":
            found.append(f'human gate "{gid}" removed')
            continue
        if not set(map(_key, items(g, "options"))) <= set(map(_key, items(ng, "options"))):
            found.append(f'an option of human gate "{gid}" removed')
    # edges leaving a gate or a check must stay as they are
    for eid, e in be.items():
        src = bn.get(e.get("from"))
        if src is None or src.get("kind") not in ("human-gate", "check") or not live(e, bn):
            continue
        ne = ae.get(m(eid, "edges"))
        if ne is None or (ne.get("from"), ne.get("to"), _when(ne)) != (m(e.get("from"), "nodes"), m(e.get("to"), "nodes"), _when(e)):
            found.append(f'edge "{eid}" leaving {src.get("kind")} "{e.get("from")}" changed or removed')
    # approvals
    pairs: dict[tuple, int] = {}
    for eid, e in be.items():
        if e.get("approval") is not True:
            continue
        ne = ae.get(m(eid, "edges"))
        pair = (m(e.get("from"), "nodes"), m(e.get("to"), "nodes"))
        if ne is None or ne.get("approval") is not True or (ne.get("from"), ne.get("to")) != pair:
            found.append(f'the approval on edge "{eid}" removed')
        pairs[pair] = 0
    for key in pairs:
        before_open = sum(1 for e in items(before, "edges") if isinstance(e, dict)
                          and (m(e.get("from"), "nodes"), m(e.get("to"), "nodes")) == key and e.get("approval") is not True)
        after_open = sum(1 for e in items(after, "edges") if isinstance(e, dict)
                         and (e.get("from"), e.get("to")) == key and e.get("approval") is not True)
        if after_open > before_open:
            found.append(f"an edge without approval added beside an approved edge {key[0]} → {key[1]}")
    # agents: irreversible, deny; checks
    for nid, n in bn.items():
        nn = an.get(m(nid, "nodes"))
        if n.get("kind") == "check":
            if nn is None or nn.get("kind") != "check" or _key(_check(nn.get("check"))) != _key(_check(n.get("check"))):
                found.append(f'check "{nid}" removed or changed')
            continue
        if n.get("kind") != "agent":
            continue
        irr = items(n, "irreversible")
        if irr and (nn is None or not set(map(_key, irr)) <= set(map(_key, items(nn, "irreversible")))):
            found.append(f'an irreversible marker of "{nid}" removed')
        deny = items(n, "deny")
        if deny and not _is_person_step(n) and (nn is None or not set(map(_key, deny)) <= set(map(_key, items(nn, "deny")))):
            found.append(f'a denied capability of "{nid}" removed')
    # loops: stops, bar, back edges, members
    for lid, lp in bl.items():
        nl = al.get(m(lid, "loops"))
        if nl is None:
            found.append(f'loop "{lid}" removed')
            continue
        found += _stops_loosened(lid, items(lp, "stops"), items(nl, "stops"))
        bar = lp.get("bar")
        if isinstance(bar, dict):
            nbar = nl.get("bar")
            if not isinstance(nbar, dict):
                found.append(f'the bar of loop "{lid}" removed')
            else:
                if _key(nbar.get("acceptance")) != _key(bar.get("acceptance")):
                    found.append(f'the acceptance of loop "{lid}" changed')
                if not {_key(_evidence(x)) for x in items(bar, "inspects")} <= {_key(_evidence(x)) for x in items(nbar, "inspects")}:
                    found.append(f'an inspects entry of loop "{lid}" removed')
        members = set(items(lp, "members"))
        new_members = set(items(nl, "members"))
        for x in members:
            if x in bn and m(x, "nodes") not in new_members:
                found.append(f'member "{x}" taken out of loop "{lid}"')
        for b in items(lp, "back"):
            e = be.get(b) if isinstance(b, str) else None
            if e is not None and e.get("from") in members and e.get("to") in members and live(e, bn):
                if m(b, "edges") not in items(nl, "back"):
                    found.append(f'back edge "{b}" removed from loop "{lid}"')
    # critic isolation on edges into critics
    for eid, e in be.items():
        c = bn.get(e.get("to"))
        if c is None or c.get("kind") != "agent" or not (isinstance(c.get("role"), str) and c["role"] in CRITIC_ROLES):
            continue
        ne = ae.get(m(eid, "edges"))
        if ne is None:
            continue  # removing the edge is judged elsewhere (and never done by a repair)
        if ne.get("isolation") == "shared" and e.get("isolation") != "shared":
            found.append(f'edge "{eid}" into critic "{e.get("to")}" made shared')
        if not set(map(_key, items(e, "evidence"))) <= set(map(_key, items(ne, "evidence"))):
            found.append(f'evidence removed from edge "{eid}" into critic "{e.get("to")}"')
    # policies (critic-isolation among them)
    for pid, p in bp.items():
        np_ = ap.get(m(pid, "policies"))
        what = "critic-isolation policy" if p.get("kind") == "critic-isolation" else "policy"
        if (np_ is None or _key(_policy_kind(np_.get("kind"))) != _key(_policy_kind(p.get("kind")))
                or _key(np_.get("params")) != _key(p.get("params"))):
            found.append(f'{what} "{pid}" removed or changed')
            continue
        if np_.get("scope") != _map_scope(p.get("scope"), m) and _scope_target_exists(p.get("scope"), bn, be, bl):
            found.append(f'the scope of {what} "{pid}" changed')
    return found


def _map_scope(scope: object, m) -> object:
    if isinstance(scope, str) and ":" in scope:
        kind, _, x = scope.partition(":")
        return f"{kind}:{m(x, {'node': 'nodes', 'edge': 'edges', 'loop': 'loops'}.get(kind))}"
    return scope


def _stops_loosened(lid: str, before: list, after: list) -> list[str]:
    """Brake stops keep their kind and their order among the brakes, come after no more stops that
    lead on (`then`) than before, never get a `then` they did not have, never grow. Stops that are
    no brake (`bar-passed`, `diminishing-returns`, `evidence-invalid`) and entries that are not
    objects are no brakes: removing one loosens nothing, even when a brake moves up in its place."""
    out = []
    j = 0  # the brakes of `after` are matched to those of `before` in order
    for i, s in enumerate(before):
        if not isinstance(s, dict) or s.get("kind") not in BRAKE_STOPS:
            continue
        kind = s["kind"]
        k = next((x for x in range(j, len(after)) if isinstance(after[x], dict) and after[x].get("kind") == kind), None)
        if k is None:
            out.append(f'{kind} stop {i} of loop "{lid}" removed or moved')
            continue
        j = k + 1
        t = after[k]
        if _leading_on(after, k) > _leading_on(before, i):
            out.append(f'{kind} stop {i} of loop "{lid}" moved after a stop that leads on')
        if "then" not in s and "then" in t:
            out.append(f'{kind} stop {i} of loop "{lid}" given a then')
        if kind == "max-iterations" and _grew(_numbers(s, "n"), _numbers(t, "n")):
            out.append(f'the cap of loop "{lid}" raised')
        if kind == "budget":
            if _grew(_numbers(s, "limit"), _numbers(t, "limit")) or s.get("measure") != t.get("measure"):
                out.append(f'the budget of loop "{lid}" raised or re-measured')
        if kind == "human" and _grew(_numbers(s, "every", 1), _numbers(t, "every", 1)):
            out.append(f'the human stop of loop "{lid}" made rarer')
    return out


def _leading_on(stops: list, end: int) -> int:
    """How many stops before index `end` lead on to a node (have a `then`) instead of halting."""
    return sum(1 for s in stops[:end] if isinstance(s, dict) and "then" in s)


def _grew(old: float | None, new: float | None) -> bool:
    if old is None:
        return False
    return new is None or new > old
