@_exported import class TextRotorICU.ByteStorage
@_exported import class TextRotorICU.ByteStream
@_exported import class TextRotorICU.BlockReader
// The byte storage and errors of the ICU layer are part of textrotor's public vocabulary.
@_exported import struct TextRotorICU.FileError
@_exported import struct TextRotorICU.ICUError
// Directory listings and streamed inputs, for `find` over trees and pipes.
@_exported import enum TextRotorICU.FileSystem
@_exported import enum TextRotorICU.FileKind
