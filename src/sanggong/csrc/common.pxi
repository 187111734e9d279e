# What every kernel family of the core shares (included into _core.pyx): the checks of
# alignment and of a bit generator, and a table's parameters read through sg_params.


cdef int _check_aligned(const void* address, size_t size, str name) except -1:
    # a typed memoryview does not check alignment, and reading an int64 through a pointer
    # that is not 8-byte aligned is undefined behaviour (an array that came through a
    # pickle, e.g. to a Dask worker, can be a view into a byte buffer at any offset)
    if <size_t>address % size:
        raise ValueError(f"{name} is not aligned to {size} bytes: pass a fresh array (numpy.require(..., requirements='A'))")
    return 0


cdef bitgen_t* _bitgen(object bit_generator) except NULL:
    capsule = getattr(bit_generator, "capsule", None)
    if capsule is None or not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise TypeError(f"{bit_generator!r} is not a numpy BitGenerator")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef int _table_params(const int64_t[::1] params, sg_params* table) except -1:
    """The table a kernel's ``params`` describe (``TableParams.array()``: the fields of
    sg_params, in order), copied into ``table``."""
    if params.shape[0] != SG_N_PARAMS:
        raise ValueError(f"params must hold {SG_N_PARAMS} values")
    _check_aligned(&params[0], sizeof(int64_t), "params")
    memcpy(table, &params[0], sizeof(sg_params))
    return 0
