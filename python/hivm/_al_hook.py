"""The import hook behind ``import triton.language.extra.cann.extension as al``.

Installed at interpreter start-up by ``hivm-al.pth``. The finder sits at the end of
``sys.meta_path``, so a real triton-ascend (which ships the module) is always found first
and this hook stands down; only when nothing else provides the name does it answer, with
a module re-exporting ``hivm.al``.
"""

import importlib.abc
import importlib.util
import sys

_PACKAGE = "triton.language.extra.cann"
_EXTENSION = _PACKAGE + ".extension"


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == _PACKAGE:
            module.__path__ = []
            return
        import hivm.al as al

        module.__dict__.update({name: getattr(al, name) for name in al.__all__})
        module.__all__ = list(al.__all__)
        module.__doc__ = al.__doc__


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in (_PACKAGE, _EXTENSION):
            return None
        return importlib.util.spec_from_loader(fullname, _Loader(), is_package=fullname == _PACKAGE)


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
