"""Structured output prediction, split the way the slides split it.

A *model* (`base.StructuredModel`) knows the joint feature map Psi(x, y), the task loss
Delta(y, y'), inference argmax_y <w, Psi(x, y)> and loss-augmented inference; a *learner*
(`learners`) trains w by talking to a model through those calls only.
"""
