"""Instantiations of the structured SVM with a small label set [S13-S15]: binary, multiclass
(Crammer-Singer) and hierarchical classification.

Every label set here is small enough that inference and loss-augmented inference enumerate
it (the slides: "|Y| = K ... envisageable de calculer l'inférence exhaustivement").
"""

import numpy as np

from course_lib._validation import as_numbers, check_int, check_non_negative, check_random_state, finite_arguments
from course_lib.i18n import _
from course_lib.structured.base import StructuredModel, check_rescaling


def _check_input(x, n_features=None, name="x"):
    """One input: a finite 1-D feature vector (of length n_features once known)."""
    x = as_numbers(x, name)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(_("{name} must be a non-empty 1-D feature vector; got shape {shape}.").format(
                             name=name, shape=x.shape))
    if not np.all(np.isfinite(x)):
        raise ValueError(_("{name} contains NaN or inf: remove or impute those entries first.").format(
                             name=name))
    if n_features is not None and x.size != n_features:
        raise ValueError(
            _("{name} has {size} features but the model was initialised with {n_features}.").format(
                name=name, size=x.size, n_features=n_features)
        )
    return x


def _feature_count(X):
    """The number of features of X, a 2-D array of training inputs, each checked by _check_input."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(_("X must be 2-D (n_samples, n_features); got shape {shape}.").format(
                             shape=X.shape))
    for x in X:
        _check_input(x, X.shape[1])
    return X.shape[1]


def _check_weights(w, size):
    w = np.asarray(w, dtype=float)
    if w.shape != (size,):
        raise ValueError(_("w must have shape ({size},) = (size_joint_feature,); got {shape}.").format(
                             size=size, shape=w.shape))
    if not np.all(np.isfinite(w)):
        raise ValueError(_("w contains NaN or inf."))
    return w


class BinaryModel(StructuredModel):
    """Binary classification as a structured SVM [S13]: Psi(x, y) = y x / 2, y in {-1, +1},
    Delta = 0-1 loss.  <w, Psi(x, +1)> - <w, Psi(x, -1)> = <w, x>, so inference is sign(<w, x>)
    and the margin-rescaled structured hinge is max(0, 1 - y <w, x>), the SVM hinge.
    (Append a constant feature to x for a bias w0.)"""

    labels = (-1, 1)

    def initialize(self, X, Y):
        super().initialize(X, Y)
        self.n_features = _feature_count(X)
        self.size_joint_feature = self.n_features
        for y in Y:
            self._check_label(y)
        return self

    def _check_label(self, y):
        if np.ndim(y) != 0 or isinstance(y, (bool, np.bool_, str)) or y not in self.labels:
            raise ValueError(_("a binary label must be -1 or +1 (the slides' y); got {y!r}.").format(
                                 y=y))
        return int(y)

    def _x(self, x):
        x = _check_input(x, getattr(self, "n_features", None))
        self.size_joint_feature = x.size
        return x

    def joint_feature(self, x, y):
        """Psi(x, y) = y x / 2."""
        return self._check_label(y) * self._x(x) / 2.0

    def loss(self, y, y_hat):
        """Delta(y, y') = [y != y']."""
        return float(self._check_label(y) != self._check_label(y_hat))

    def inference(self, x, w):
        """argmax_y y <w, x> / 2 = sign(<w, x>) (+1 on a tie)."""
        x = self._x(x)
        return 1 if _check_weights(w, x.size) @ x >= 0 else -1

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        """argmax over y' in {-1, +1} of the augmented score, by enumeration."""
        check_rescaling(rescaling)
        x, y = self._x(x), self._check_label(y)
        half = _check_weights(w, x.size) @ x / 2.0
        score = {-1: -half, 1: half}
        best, best_value = None, -np.inf
        for y_prime in self.labels:
            delta = float(y_prime != y)
            value = delta + score[y_prime] if rescaling == "margin" else \
                delta * (1.0 + score[y_prime] - score[y])
            if value > best_value:
                best, best_value = y_prime, value
        return best


class MulticlassModel(StructuredModel):
    """Crammer-Singer multiclass SVM as a structured SVM [S14]: labels y in {0, ..., K-1},
    Psi(x, y) = x e_y^T (x in block y, zeros elsewhere), Delta = 0-1 loss or cost[y, y'].
    With w = (w_0, ..., w_{K-1}) stacked, <w, Psi(x, y)> = <w_y, x> and inference is argmax_y.

    n_classes: K.  cost: optional K x K matrix Delta(y, y') (>= 0, zero diagonal).
    """

    @finite_arguments
    def __init__(self, n_classes: int, cost=None):
        self.n_classes = check_int(n_classes, "n_classes", 2)
        self.cost = cost

    # -- the label geometry: row y of `codes` says which blocks Psi(x, y) fills ------------
    def _codes(self):
        return np.eye(check_int(self.n_classes, "n_classes", 2))

    def delta_matrix(self):
        """The K x K table Delta(y, y')."""
        K = check_int(self.n_classes, "n_classes", 2)
        if self.cost is None:
            return 1.0 - np.eye(K)
        cost = np.asarray(self.cost, dtype=float)
        if cost.shape != (K, K):
            raise ValueError(_("cost must be a {K} x {K} matrix (n_classes x n_classes); got "
                               "{shape}.").format(K=K, shape=cost.shape))
        if not np.all(np.isfinite(cost)) or np.any(cost < 0) or np.any(np.diag(cost) != 0):
            raise ValueError(_("cost must be finite, >= 0, with a zero diagonal (Delta(y, y) = 0)."))
        return cost

    def initialize(self, X, Y):
        super().initialize(X, Y)
        self.n_features = _feature_count(X)
        self.size_joint_feature = self._codes().shape[1] * self.n_features
        for y in Y:
            self._check_label(y)
        self.delta_matrix()
        return self

    def _check_label(self, y):
        K = self._codes().shape[0]
        integral = isinstance(y, (int, np.integer)) or (
            isinstance(y, (float, np.floating)) and float(y).is_integer())
        if np.ndim(y) != 0 or isinstance(y, (bool, np.bool_)) or not integral or not 0 <= y < K:
            raise ValueError(_("a label (an entry of Y) must be an integer in 0..{last}; got "
                               "{y!r}.").format(last=K - 1, y=y))
        return int(y)

    def _x(self, x):
        x = _check_input(x, getattr(self, "n_features", None))
        self.size_joint_feature = self._codes().shape[1] * x.size
        return x

    def joint_feature(self, x, y):
        """Psi(x, y) = codes[y] (kron) x: x copied into the blocks that label y switches on."""
        x = self._x(x)
        return np.kron(self._codes()[self._check_label(y)], x) + 0.0  # + 0.0: no -0.0 entries

    def scores(self, x, w):
        """<w, Psi(x, y)> for every label y at once: codes @ (W x) with W = w by blocks."""
        x = self._x(x)
        codes = self._codes()
        W = _check_weights(w, codes.shape[1] * x.size).reshape(codes.shape[1], x.size)
        return codes @ (W @ x)

    def loss(self, y, y_hat):
        return float(self.delta_matrix()[self._check_label(y), self._check_label(y_hat)])

    def inference(self, x, w):
        """argmax_y <w, Psi(x, y)> (first label on a tie)."""
        return int(np.argmax(self.scores(x, w)))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        """Margin: argmax_y' Delta(y, y') + s(y'); slack: argmax_y' Delta(y, y') (1 + s(y') - s(y)),
        with s = scores, over all K labels."""
        check_rescaling(rescaling)
        y, s = self._check_label(y), self.scores(x, w)
        delta = self.delta_matrix()[y]
        value = delta + s if rescaling == "margin" else delta * (1.0 + s - s[y])
        return int(np.argmax(value))


def tree_distance(parent, a, b):
    """Number of edges between nodes a and b of the tree given by `parent` (child -> parent)."""
    path_a = _path_to_root(parent, a)
    depth_in_a = {node: depth for depth, node in enumerate(path_a)}
    for steps_b, node in enumerate(_path_to_root(parent, b)):
        if node in depth_in_a:  # the lowest common ancestor
            return depth_in_a[node] + steps_b
    raise ValueError(_("{a!r} and {b!r} are not in the same tree.").format(a=a, b=b))


def _path_to_root(parent, node):
    path = [node]
    while path[-1] in parent:
        path.append(parent[path[-1]])
        if len(path) > len(parent) + 1:
            raise ValueError(_("the tree has a cycle: check the children lists."))
    return path


class HierarchicalModel(MulticlassModel):
    """Hierarchical classification [S15]: the labels are the leaves of a class tree,
    Delta(y, y') = (tree distance between y and y') / 2 (cat-dog 1, cat-bus 2), and
    Psi(x, y) = sum over the nodes v on the path root -> y (root excluded) of x in block v,
    so the leaves of one subtree share the weights of their ancestors.

    tree: dict node -> list of children, e.g. {"root": ["animal", "vehicle"],
          "animal": ["cat", "dog"], "vehicle": ["car", "bus"]}.
    Labels are the leaf indices 0..K-1 in `classes_` (leaves in depth-first order).
    """

    def __init__(self, tree):
        self.tree = tree
        self.cost = None

    def _structure(self):
        tree = self.tree
        if not isinstance(tree, dict) or not tree:
            raise TypeError(_("tree must be a non-empty dict node -> list of children."))
        parent = {}
        for node, children in tree.items():
            for child in children:
                if child in parent:
                    raise ValueError(_("node {child!r} has two parents: a class tree needs one.").format(
                                         child=child))
                parent[child] = node
        roots = [node for node in tree if node not in parent]
        if len(roots) != 1:
            raise ValueError(_("tree must have exactly one root; found {roots}.").format(
                                 roots=roots))
        nodes, leaves, stack = [], [], [roots[0]]
        while stack:  # depth first, children in the order given
            node = stack.pop()
            nodes.append(node)
            children = list(tree.get(node, ()))
            if not children:
                leaves.append(node)
            stack.extend(reversed(children))
        if len(nodes) != len(parent) + 1:
            raise ValueError(_("tree is not connected or has a cycle."))
        if len(leaves) < 2:
            raise ValueError(_("tree needs at least two leaves (classes)."))
        return parent, nodes[1:], leaves

    @property
    def classes_(self):
        return self._structure()[2]

    @property
    def nodes_(self):
        """The non-root nodes, one block of w each."""
        return self._structure()[1]

    @property
    def n_classes(self):
        return len(self.classes_)

    def _codes(self):
        parent, nodes, leaves = self._structure()
        codes = np.zeros((len(leaves), len(nodes)))
        for k, leaf in enumerate(leaves):
            for node in _path_to_root(parent, leaf)[:-1]:
                codes[k, nodes.index(node)] = 1.0
        return codes

    def delta_matrix(self):
        """Delta(y, y') = tree distance / 2 for every pair of leaves."""
        parent, _, leaves = self._structure()
        return np.array([[tree_distance(parent, a, b) / 2.0 for b in leaves] for a in leaves])

    def label(self, name):
        """The label (index) of the class called `name`."""
        if name not in self.classes_:
            raise ValueError(_("{name!r} is not a leaf of the tree; the classes are {classes}.").format(
                                 name=name, classes=self.classes_))
        return self.classes_.index(name)


@finite_arguments
def toy_hierarchy(n=80, spread=0.7, seed=0):
    """2-D points of the four classes of the slides' tree, labels 0..3 = cat, dog, car, bus:
    the animals on the left (cat above dog), the vehicles on the right (car above bus), the two
    leaves of a branch closer to each other than to the other branch.  Returns (X, y)."""
    rng = check_random_state(seed)
    spread = check_non_negative(spread, "spread")
    centres = np.array([[-2.0, 1.0], [-2.0, -1.0], [2.0, 1.0], [2.0, -1.0]])
    y = np.arange(check_int(n, "n", 4)) % 4
    X = centres[y] + rng.normal(scale=spread, size=(len(y), 2))
    order = rng.permutation(len(y))
    return X[order], y[order]
