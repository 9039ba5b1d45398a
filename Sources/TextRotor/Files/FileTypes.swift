/// File types for `find -t TYPE` / `-T TYPE`, as ripgrep names them: each a name and the globs of
/// the file names it covers (matched against a file's name, not its path). The definitions are
/// ripgrep 13's, all of its types (`FindTypesDepthLinksTests` compares them with `rg --type-list`).
public enum FileTypes {
  /// Every known type, sorted by name.
  public static let all: [(name: String, globs: [String])] = [
    ("agda", ["*.agda", "*.lagda"]),
    ("aidl", ["*.aidl"]),
    ("amake", ["*.bp", "*.mk"]),
    ("asciidoc", ["*.adoc", "*.asc", "*.asciidoc"]),
    ("asm", ["*.S", "*.asm", "*.s"]),
    ("asp", ["*.ascx", "*.ascx.cs", "*.ascx.vb", "*.aspx", "*.aspx.cs", "*.aspx.vb"]),
    ("ats", ["*.ats", "*.dats", "*.hats", "*.sats"]),
    ("avro", ["*.avdl", "*.avpr", "*.avsc"]),
    ("awk", ["*.awk"]),
    ("bazel", ["*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"]),
    ("bitbake", ["*.bb", "*.bbappend", "*.bbclass", "*.conf", "*.inc"]),
    ("brotli", ["*.br"]),
    ("buildstream", ["*.bst"]),
    ("bzip2", ["*.bz2", "*.tbz2"]),
    ("c", ["*.[chH]", "*.[chH].in", "*.cats"]),
    ("cabal", ["*.cabal"]),
    ("cbor", ["*.cbor"]),
    ("ceylon", ["*.ceylon"]),
    ("clojure", ["*.clj", "*.cljc", "*.cljs", "*.cljx"]),
    ("cmake", ["*.cmake", "CMakeLists.txt"]),
    ("coffeescript", ["*.coffee"]),
    ("config", ["*.cfg", "*.conf", "*.config", "*.ini"]),
    ("coq", ["*.v"]),
    (
      "cpp",
      [
        "*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh",
        "*.hh.in", "*.inl",
      ]
    ),
    ("creole", ["*.creole"]),
    ("crystal", ["*.cr", "Projectfile"]),
    ("cs", ["*.cs"]),
    ("csharp", ["*.cs"]),
    ("cshtml", ["*.cshtml"]),
    ("css", ["*.css", "*.scss"]),
    ("csv", ["*.csv"]),
    ("cython", ["*.pxd", "*.pxi", "*.pyx"]),
    ("d", ["*.d"]),
    ("dart", ["*.dart"]),
    ("dhall", ["*.dhall"]),
    ("diff", ["*.diff", "*.patch"]),
    ("docker", ["*Dockerfile*"]),
    ("dvc", ["*.dvc", "Dvcfile"]),
    ("ebuild", ["*.ebuild"]),
    ("edn", ["*.edn"]),
    ("elisp", ["*.el"]),
    ("elixir", ["*.eex", "*.ex", "*.exs"]),
    ("elm", ["*.elm"]),
    ("erb", ["*.erb"]),
    ("erlang", ["*.erl", "*.hrl"]),
    ("fidl", ["*.fidl"]),
    ("fish", ["*.fish"]),
    ("flatbuffers", ["*.fbs"]),
    ("fortran", ["*.F", "*.F77", "*.F90", "*.F95", "*.f", "*.f77", "*.f90", "*.f95", "*.pfo"]),
    ("fsharp", ["*.fs", "*.fsi", "*.fsx"]),
    ("fut", [".fut"]),
    ("gap", ["*.g", "*.gap", "*.gd", "*.gi", "*.tst"]),
    ("gn", ["*.gn", "*.gni"]),
    ("go", ["*.go"]),
    ("gradle", ["*.gradle"]),
    ("groovy", ["*.gradle", "*.groovy"]),
    ("gzip", ["*.gz", "*.tgz"]),
    ("h", ["*.h", "*.hpp"]),
    ("haml", ["*.haml"]),
    ("haskell", ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"]),
    ("hbs", ["*.hbs"]),
    ("hs", ["*.hs", "*.lhs"]),
    ("html", ["*.ejs", "*.htm", "*.html"]),
    ("idris", ["*.idr", "*.lidr"]),
    ("java", ["*.java", "*.jsp", "*.jspx", "*.properties"]),
    ("jinja", ["*.j2", "*.jinja", "*.jinja2"]),
    ("jl", ["*.jl"]),
    ("js", ["*.js", "*.jsx", "*.vue"]),
    ("json", ["*.json", "composer.lock"]),
    ("jsonl", ["*.jsonl"]),
    ("julia", ["*.jl"]),
    ("jupyter", ["*.ipynb", "*.jpynb"]),
    ("k", ["*.k"]),
    ("kotlin", ["*.kt", "*.kts"]),
    ("less", ["*.less"]),
    (
      "license",
      [
        "*[.-]LICEN[CS]E*", "AGPL-*[0-9]*", "APACHE-*[0-9]*", "BSD-*[0-9]*", "CC-BY-*", "COPYING", "COPYING[.-]*",
        "COPYRIGHT", "COPYRIGHT[.-]*", "EULA", "EULA[.-]*", "GFDL-*[0-9]*", "GNU-*[0-9]*", "GPL-*[0-9]*",
        "LGPL-*[0-9]*", "LICEN[CS]E", "LICEN[CS]E[.-]*", "MIT-*[0-9]*", "MPL-*[0-9]*", "NOTICE", "NOTICE[.-]*",
        "OFL-*[0-9]*", "PATENTS", "PATENTS[.-]*", "UNLICEN[CS]E", "UNLICEN[CS]E[.-]*", "agpl[.-]*", "gpl[.-]*",
        "lgpl[.-]*", "licen[cs]e", "licen[cs]e.*",
      ]
    ),
    ("lisp", ["*.el", "*.jl", "*.lisp", "*.lsp", "*.sc", "*.scm"]),
    ("lock", ["*.lock", "package-lock.json"]),
    ("log", ["*.log"]),
    ("lua", ["*.lua"]),
    ("lz4", ["*.lz4"]),
    ("lzma", ["*.lzma"]),
    ("m4", ["*.ac", "*.m4"]),
    (
      "make",
      [
        "*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile",
        "[Mm]akefile.am", "[Mm]akefile.in",
      ]
    ),
    ("mako", ["*.mako", "*.mao"]),
    ("man", ["*.[0-9][cEFMmpSx]", "*.[0-9lnpx]"]),
    ("markdown", ["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("matlab", ["*.m"]),
    ("md", ["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("meson", ["meson.build", "meson_options.txt"]),
    ("minified", ["*.min.css", "*.min.html", "*.min.js"]),
    ("mint", ["*.mint"]),
    ("mk", ["mkfile"]),
    ("ml", ["*.ml"]),
    ("msbuild", ["*.csproj", "*.fsproj", "*.proj", "*.props", "*.targets", "*.vcxproj"]),
    ("nim", ["*.nim", "*.nimble", "*.nimf", "*.nims"]),
    ("nix", ["*.nix"]),
    ("objc", ["*.h", "*.m"]),
    ("objcpp", ["*.h", "*.mm"]),
    ("ocaml", ["*.ml", "*.mli", "*.mll", "*.mly"]),
    ("org", ["*.org", "*.org_archive"]),
    ("pascal", ["*.dpr", "*.inc", "*.lpr", "*.pas", "*.pp"]),
    ("pdf", ["*.pdf"]),
    ("perl", ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"]),
    ("php", ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"]),
    ("po", ["*.po"]),
    ("pod", ["*.pod"]),
    ("postscript", ["*.eps", "*.ps"]),
    ("protobuf", ["*.proto"]),
    ("ps", ["*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"]),
    ("puppet", ["*.erb", "*.pp", "*.rb"]),
    ("purs", ["*.purs"]),
    ("py", ["*.py"]),
    ("qmake", ["*.prf", "*.pri", "*.pro"]),
    ("qml", ["*.qml"]),
    ("r", ["*.R", "*.Rmd", "*.Rnw", "*.r"]),
    ("racket", ["*.rkt"]),
    ("rdoc", ["*.rdoc"]),
    ("readme", ["*README", "README*"]),
    ("red", ["*.r", "*.red", "*.reds"]),
    ("robot", ["*.robot"]),
    ("rst", ["*.rst"]),
    ("ruby", ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"]),
    ("rust", ["*.rs"]),
    ("sass", ["*.sass", "*.scss"]),
    ("scala", ["*.sbt", "*.scala"]),
    (
      "sh",
      [
        "*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login",
        ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc",
        ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc",
        "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc",
      ]
    ),
    ("slim", ["*.skim", "*.slim", "*.slime"]),
    ("smarty", ["*.tpl"]),
    ("sml", ["*.sig", "*.sml"]),
    ("soy", ["*.soy"]),
    ("spark", ["*.spark"]),
    ("spec", ["*.spec"]),
    ("sql", ["*.psql", "*.sql"]),
    ("stylus", ["*.styl"]),
    ("sv", ["*.h", "*.sv", "*.svh", "*.v", "*.vg"]),
    ("svg", ["*.svg"]),
    ("swift", ["*.swift"]),
    ("swig", ["*.def", "*.i"]),
    (
      "systemd",
      [
        "*.automount", "*.conf", "*.device", "*.link", "*.mount", "*.path", "*.scope", "*.service", "*.slice",
        "*.socket", "*.swap", "*.target", "*.timer",
      ]
    ),
    ("taskpaper", ["*.taskpaper"]),
    ("tcl", ["*.tcl"]),
    ("tex", ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"]),
    ("textile", ["*.textile"]),
    ("tf", ["*.tf"]),
    ("thrift", ["*.thrift"]),
    ("toml", ["*.toml", "Cargo.lock"]),
    ("ts", ["*.ts", "*.tsx"]),
    ("twig", ["*.twig"]),
    ("txt", ["*.txt"]),
    ("typoscript", ["*.ts", "*.typoscript"]),
    ("vala", ["*.vala"]),
    ("vb", ["*.vb"]),
    ("vcl", ["*.vcl"]),
    ("verilog", ["*.sv", "*.svh", "*.v", "*.vh"]),
    ("vhdl", ["*.vhd", "*.vhdl"]),
    ("vim", ["*.vim"]),
    ("vimscript", ["*.vim"]),
    ("webidl", ["*.idl", "*.webidl", "*.widl"]),
    ("wiki", ["*.mediawiki", "*.wiki"]),
    ("xml", ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"]),
    ("xz", ["*.txz", "*.xz"]),
    ("yacc", ["*.y"]),
    ("yaml", ["*.yaml", "*.yml"]),
    ("yang", ["*.yang"]),
    ("z", ["*.Z"]),
    ("zig", ["*.zig"]),
    (
      "zsh",
      [
        "*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv",
        "zshrc",
      ]
    ),
    ("zstd", ["*.zst", "*.zstd"]),
  ]

  /// The globs of type `name` (`all`: every type's), or nil for a type not known.
  public static func globs(of name: String) -> [String]? {
    if name == "all" { return all.flatMap(\.globs) }
    return all.first { $0.name == name }?.globs
  }

  /// `rg --type-list`'s lines: `name: glob, glob, ...`.
  public static var listing: String {
    all.map { "\($0.name): \($0.globs.joined(separator: ", "))\n" }.joined()
  }

  /// Which files a search keeps by type: those matching one of the selected types (`-t`), when
  /// any is selected, and none matching a negated one (`-T`). Directories are never filtered.
  public struct Selection: Sendable {
    private var selected = IgnoreRules()
    private var negated = IgnoreRules()
    private var hasSelection = false

    /// The selection of `select` (`-t`) and `negate` (`-T`) type names; throws the first name
    /// that names no type.
    public init(select: [String], negate: [String]) throws(UnknownType) {
      for name in select {
        guard let globs = FileTypes.globs(of: name) else { throw UnknownType(name: name) }
        for glob in globs { selected.add(line: glob) }
        hasSelection = true
      }
      for name in negate {
        guard let globs = FileTypes.globs(of: name) else { throw UnknownType(name: name) }
        for glob in globs { negated.add(line: glob) }
      }
    }

    /// Whether neither `-t` nor `-T` was given.
    public var isEmpty: Bool { !hasSelection && negated.isEmpty }

    /// For a file named `name`: `.ignore` when a negated type covers it or a selection leaves it
    /// out, `.include` when a selected type covers it, nil when no type says anything (as
    /// ripgrep's `Types::matched`).
    func decision(forName name: ArraySlice<UInt8>) -> IgnoreRules.Decision? {
      if negated.decision(forPath: name, isDirectory: false) == .ignore { return .ignore }
      if selected.decision(forPath: name, isDirectory: false) == .ignore { return .include }
      return hasSelection ? .ignore : nil
    }
  }

  /// A type name that names no type.
  public struct UnknownType: Error, Sendable, CustomStringConvertible {
    public let name: String
    public var description: String {
      "unrecognized file type: \(name) (find --type-list lists the types)"
    }
  }
}
