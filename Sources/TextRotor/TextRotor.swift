@_exported import class ICU.ByteStorage
// The byte storage and errors of the ICU layer are part of textrotor's public vocabulary.
@_exported import struct ICU.FileError
@_exported import struct ICU.ICUError
