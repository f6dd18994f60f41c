# Writes the MAT-file fixtures of matfile_test.go with SciPy's savemat
# (MATLAB 5.0 format). Run with Debian's python3 (python3-scipy):
#   /usr/bin/python3 make_fixtures.py
import numpy as np, scipy.io

def fixtures():
    s = {'type': 'rbf', 'c': np.array([[1.5, -2.0], [0.25, 3.0], [-1.0, 0.5]]),
         'nin': np.array([[2.0]]), 'inner': {'beta': 47.25, 'tag': 'ab'}}
    cell = np.empty((1, 3), dtype=object)
    cell[0, 0] = np.array([[1.0, 2.0]]); cell[0, 1] = 'xyz'; cell[0, 2] = np.array([[7]], dtype=np.int16)
    sarr = np.zeros((1, 2), dtype=[('a', object), ('b', object)])
    sarr[0, 0] = (np.array([[1.0]]), 'p'); sarr[0, 1] = (np.array([[2.0, 3.0]]), 'qq')
    return {
        'd': np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]),
        'sgl': np.array([[0.5, -1.25]], dtype=np.float32),
        'i8': np.array([[-128, 127]], dtype=np.int8), 'u8': np.array([[0, 255]], dtype=np.uint8),
        'i16': np.array([[-32768, 32767]], dtype=np.int16), 'u16': np.array([[0, 65535]], dtype=np.uint16),
        'i32': np.array([[-2147483648, 2147483647]], dtype=np.int32), 'u32': np.array([[0, 4294967295]], dtype=np.uint32),
        'i64': np.array([[-(2**53), 2**53]], dtype=np.int64), 'u64': np.array([[0, 2**53]], dtype=np.uint64),
        'z': np.array([[1 + 2j, -3.5j]]),
        'b': np.array([[True, False, True]]),
        'str': 'hello, mat',
        'e': np.zeros((0, 0)),
        's': s, 'cel': cell, 'sarr': sarr,
        'col': np.arange(5.0).reshape(5, 1),
    }

for comp in (False, True):
    name = 'fixture_compressed.mat' if comp else 'fixture_plain.mat'
    scipy.io.savemat(name, fixtures(), do_compression=comp, oned_as='row')
