// The byte storage, streams and errors of the ICU layer are part of textrotor's public vocabulary;
// directory listings and streamed inputs serve `find` over trees and pipes.
@_exported import class TextRotorICU.BlockReader
@_exported import protocol TextRotorICU.ByteSource
@_exported import class TextRotorICU.ByteStorage
@_exported import class TextRotorICU.ByteStream
@_exported import struct TextRotorICU.FileError
@_exported import enum TextRotorICU.FileKind
@_exported import enum TextRotorICU.FileSystem
@_exported import struct TextRotorICU.ICUError
@_exported import enum TextRotorICU.SpellResult
// Hunspell dictionaries: the misspelled-words rotor's speller.
@_exported import class TextRotorICU.Speller
@_exported import struct TextRotorICU.SpellerError
@_exported import class TextRotorICU.UTF16Transcoder
