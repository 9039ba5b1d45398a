@_exported import class TextRotorICU.ByteStorage
@_exported import class TextRotorICU.ByteStream
// The byte storage and errors of the ICU layer are part of textrotor's public vocabulary.
@_exported import struct TextRotorICU.FileError
@_exported import struct TextRotorICU.ICUError
