"""The import hook behind ``import triton.language.extra.cann.extension as al``.

Installed at interpreter start-up by ``hivm-al.pth``. The finder sits at the end of
``sys.meta_path``, so a real triton-ascend (which ships the module) is always found first
and this hook stands down; only when nothing else provides the name does it answer, with
a module re-exporting ``hivm.al``. Under ``HIVM_TWIN=1`` it also serves a ``torch_npu``
stand-in (when no real one is installed) and switches Triton's interpreter on.
"""

import importlib.abc
import importlib.util
import os
import sys

_PACKAGE = "triton.language.extra.cann"
_EXTENSION = _PACKAGE + ".extension"
_TORCH_NPU = "torch_npu"


def _twin_mode() -> bool:
    """``HIVM_TWIN=1``: NPU tests run unchanged on the CPU twin (op by op under Triton's
    interpreter); ``HIVM_TWIN=compile``: each launch compiles the kernel to HIVM and runs it whole."""
    return os.environ.get("HIVM_TWIN", "0").lower() in ("1", "true", "yes", "on", "compile")


def _compile_mode() -> bool:
    return os.environ.get("HIVM_TWIN", "0").lower() == "compile"


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == _TORCH_NPU:
            # The stand-in: tensors stay on the CPU, where the twin runs the kernels.
            import torch

            torch.Tensor.npu = lambda self, *args, **kwargs: self
            module.__doc__ = "hivm's stand-in for torch_npu under HIVM_TWIN=1: Tensor.npu() is the identity."
            return
        if module.__name__ == _PACKAGE:
            module.__path__ = []
            return
        import hivm.al as al

        module.__dict__.update({name: getattr(al, name) for name in al.__all__})
        module.__all__ = list(al.__all__)
        module.__doc__ = al.__doc__
        if _compile_mode():
            import hivm.triton

            hivm.triton.install_compiled_launch()


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in (_PACKAGE, _EXTENSION) and not (fullname == _TORCH_NPU and _twin_mode()):
            return None
        return importlib.util.spec_from_loader(fullname, _Loader(), is_package=fullname == _PACKAGE)


def install():
    if _twin_mode():
        # Triton reads this when a kernel is launched; the twin needs the interpreter.
        os.environ.setdefault("TRITON_INTERPRET", "1")
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
