"""course_lib: from-scratch implementations of the algorithms of the course, in NumPy.

Modules follow the slides: `linear` (perceptron, least squares), `kernels`, `svm`,
`multiclass`, `perceptron`, `structured`; `data` makes the toy sets and loads the OCR letters;
`plotting` draws, `widgets` wires sliders to drawings, `figures` regenerates figures/.
"""

__version__ = "0.1.0"

from course_lib.i18n import get_language, number, set_language  # noqa: E402,F401
