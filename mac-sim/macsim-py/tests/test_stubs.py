"""The type stubs (`macsim/_native.pyi`) describe the native module as it is: every
function and class of the one is in the other, with the same parameters."""

import ast
import inspect
import pathlib

import macsim
from macsim import _native

STUBS = pathlib.Path(macsim.__file__).with_name("_native.pyi")


def params(node: ast.FunctionDef):
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.vararg:
        names.append("*" + a.vararg.arg)
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
    return [n for n in names if n != "self"]


def native_params(f):
    out = []
    for p in inspect.signature(f).parameters.values():
        prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        if p.name != "self":
            out.append(prefix + p.name)
    return out


def test_stubs_match_the_native_module():
    tree = ast.parse(STUBS.read_text())
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    native = {n for n in dir(_native) if not n.startswith("_")}
    callables = {n for n in native if inspect.isbuiltin(getattr(_native, n))}
    types = {n for n in native if isinstance(getattr(_native, n), type)}
    assert set(functions) == callables
    assert set(classes) == types
    for name, node in functions.items():
        assert params(node) == native_params(getattr(_native, name)), name
    for name, node in classes.items():
        cls = getattr(_native, name)
        for m in node.body:
            if isinstance(m, ast.FunctionDef) and not m.name.startswith("__"):
                assert params(m) == native_params(getattr(cls, m.name)), f"{name}.{m.name}"
