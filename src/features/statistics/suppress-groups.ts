export interface GroupNode {
  key: string;
  /** the enclosing group (an org unit's parent unit); null for a child of the whole cut */
  parent: string | null;
  authors: number;
}

/**
 * Which groups of a report on an anonymous form to suppress so that no group under the floor
 * can be recovered by subtraction. A group under the floor is suppressed; then, for the whole
 * cut and every visible group, what a reader gets by subtracting its nearest visible subgroups
 * (its residual: responses in no group, in suppressed groups, an org unit's own responses)
 * must be nothing or at least the floor; otherwise the smallest of those subgroups is
 * suppressed too (or, when it has none, the group itself), until nothing changes. Flat
 * groupings (dims) are the one-level case; org units nest.
 */
export function suppressGroups(nodes: GroupNode[], wholeAuthors: number, floor: number): Set<string> {
  const suppressed = new Set(nodes.filter((node) => node.authors < floor).map((node) => node.key));
  const children = new Map<string | null, GroupNode[]>();
  for (const node of nodes) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  const frontier = (parent: string | null): GroupNode[] =>
    (children.get(parent) ?? []).flatMap((child) => (suppressed.has(child.key) ? frontier(child.key) : [child]));

  const settle = (key: string | null, authors: number): boolean => {
    const visible = frontier(key);
    const residual = authors - visible.reduce((sum, node) => sum + node.authors, 0);
    if (residual <= 0 || residual >= floor) return false;
    const smallest = visible.sort((a, b) => a.authors - b.authors || a.key.localeCompare(b.key))[0];
    if (smallest) suppressed.add(smallest.key);
    else if (key !== null) suppressed.add(key);
    else return false;
    return true;
  };

  let changed = true;
  while (changed) {
    changed = settle(null, wholeAuthors);
    for (const node of nodes) if (!suppressed.has(node.key)) changed = settle(node.key, node.authors) || changed;
  }
  return suppressed;
}
