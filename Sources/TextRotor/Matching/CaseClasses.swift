import TextRotorICU

/// Simple case-folding classes and the scalars of multi-scalar foldings, as ICU folds (Unicode's
/// CaseFolding.txt, statuses C, S and F; generated from Unicode 14 data; a test checks them against
/// the ICU in use for every code point up to U+1FFFF).
enum CaseClasses {
  /// Each class: its folded form first, then the other scalars folding to it; classes separated by
  /// spaces and line breaks.
  static let table: String =
    """
    \u{61}\u{41} \u{62}\u{42} \u{63}\u{43} \u{64}\u{44} \u{65}\u{45} \u{66}\u{46} \u{67}\u{47} \u{68}\u{48}
    \u{69}\u{49} \u{6A}\u{4A} \u{6B}\u{4B}\u{212A} \u{6C}\u{4C} \u{6D}\u{4D} \u{6E}\u{4E} \u{6F}\u{4F}
    \u{70}\u{50} \u{71}\u{51} \u{72}\u{52} \u{73}\u{53}\u{17F} \u{74}\u{54} \u{75}\u{55} \u{76}\u{56}
    \u{77}\u{57} \u{78}\u{58} \u{79}\u{59} \u{7A}\u{5A} \u{E0}\u{C0} \u{E1}\u{C1} \u{E2}\u{C2} \u{E3}\u{C3}
    \u{E4}\u{C4} \u{E5}\u{C5}\u{212B} \u{E6}\u{C6} \u{E7}\u{C7} \u{E8}\u{C8} \u{E9}\u{C9} \u{EA}\u{CA}
    \u{EB}\u{CB} \u{EC}\u{CC} \u{ED}\u{CD} \u{EE}\u{CE} \u{EF}\u{CF} \u{F0}\u{D0} \u{F1}\u{D1} \u{F2}\u{D2}
    \u{F3}\u{D3} \u{F4}\u{D4} \u{F5}\u{D5} \u{F6}\u{D6} \u{F8}\u{D8} \u{F9}\u{D9} \u{FA}\u{DA} \u{FB}\u{DB}
    \u{FC}\u{DC} \u{FD}\u{DD} \u{FE}\u{DE} \u{FF}\u{178} \u{101}\u{100} \u{103}\u{102} \u{105}\u{104}
    \u{107}\u{106} \u{109}\u{108} \u{10B}\u{10A} \u{10D}\u{10C} \u{10F}\u{10E} \u{111}\u{110} \u{113}\u{112}
    \u{115}\u{114} \u{117}\u{116} \u{119}\u{118} \u{11B}\u{11A} \u{11D}\u{11C} \u{11F}\u{11E} \u{121}\u{120}
    \u{123}\u{122} \u{125}\u{124} \u{127}\u{126} \u{129}\u{128} \u{12B}\u{12A} \u{12D}\u{12C} \u{12F}\u{12E}
    \u{133}\u{132} \u{135}\u{134} \u{137}\u{136} \u{13A}\u{139} \u{13C}\u{13B} \u{13E}\u{13D} \u{140}\u{13F}
    \u{142}\u{141} \u{144}\u{143} \u{146}\u{145} \u{148}\u{147} \u{14B}\u{14A} \u{14D}\u{14C} \u{14F}\u{14E}
    \u{151}\u{150} \u{153}\u{152} \u{155}\u{154} \u{157}\u{156} \u{159}\u{158} \u{15B}\u{15A} \u{15D}\u{15C}
    \u{15F}\u{15E} \u{161}\u{160} \u{163}\u{162} \u{165}\u{164} \u{167}\u{166} \u{169}\u{168} \u{16B}\u{16A}
    \u{16D}\u{16C} \u{16F}\u{16E} \u{171}\u{170} \u{173}\u{172} \u{175}\u{174} \u{177}\u{176} \u{17A}\u{179}
    \u{17C}\u{17B} \u{17E}\u{17D} \u{180}\u{243} \u{183}\u{182} \u{185}\u{184} \u{188}\u{187} \u{18C}\u{18B}
    \u{192}\u{191} \u{195}\u{1F6} \u{199}\u{198} \u{19A}\u{23D} \u{19E}\u{220} \u{1A1}\u{1A0} \u{1A3}\u{1A2}
    \u{1A5}\u{1A4} \u{1A8}\u{1A7} \u{1AD}\u{1AC} \u{1B0}\u{1AF} \u{1B4}\u{1B3} \u{1B6}\u{1B5} \u{1B9}\u{1B8}
    \u{1BD}\u{1BC} \u{1BF}\u{1F7} \u{1C6}\u{1C4}\u{1C5} \u{1C9}\u{1C7}\u{1C8} \u{1CC}\u{1CA}\u{1CB}
    \u{1CE}\u{1CD} \u{1D0}\u{1CF} \u{1D2}\u{1D1} \u{1D4}\u{1D3} \u{1D6}\u{1D5} \u{1D8}\u{1D7} \u{1DA}\u{1D9}
    \u{1DC}\u{1DB} \u{1DD}\u{18E} \u{1DF}\u{1DE} \u{1E1}\u{1E0} \u{1E3}\u{1E2} \u{1E5}\u{1E4} \u{1E7}\u{1E6}
    \u{1E9}\u{1E8} \u{1EB}\u{1EA} \u{1ED}\u{1EC} \u{1EF}\u{1EE} \u{1F3}\u{1F1}\u{1F2} \u{1F5}\u{1F4}
    \u{1F9}\u{1F8} \u{1FB}\u{1FA} \u{1FD}\u{1FC} \u{1FF}\u{1FE} \u{201}\u{200} \u{203}\u{202} \u{205}\u{204}
    \u{207}\u{206} \u{209}\u{208} \u{20B}\u{20A} \u{20D}\u{20C} \u{20F}\u{20E} \u{211}\u{210} \u{213}\u{212}
    \u{215}\u{214} \u{217}\u{216} \u{219}\u{218} \u{21B}\u{21A} \u{21D}\u{21C} \u{21F}\u{21E} \u{223}\u{222}
    \u{225}\u{224} \u{227}\u{226} \u{229}\u{228} \u{22B}\u{22A} \u{22D}\u{22C} \u{22F}\u{22E} \u{231}\u{230}
    \u{233}\u{232} \u{23C}\u{23B} \u{23F}\u{2C7E} \u{240}\u{2C7F} \u{242}\u{241} \u{247}\u{246} \u{249}\u{248}
    \u{24B}\u{24A} \u{24D}\u{24C} \u{24F}\u{24E} \u{250}\u{2C6F} \u{251}\u{2C6D} \u{252}\u{2C70} \u{253}\u{181}
    \u{254}\u{186} \u{256}\u{189} \u{257}\u{18A} \u{259}\u{18F} \u{25B}\u{190} \u{25C}\u{A7AB} \u{260}\u{193}
    \u{261}\u{A7AC} \u{263}\u{194} \u{265}\u{A78D} \u{266}\u{A7AA} \u{268}\u{197} \u{269}\u{196} \u{26A}\u{A7AE}
    \u{26B}\u{2C62} \u{26C}\u{A7AD} \u{26F}\u{19C} \u{271}\u{2C6E} \u{272}\u{19D} \u{275}\u{19F} \u{27D}\u{2C64}
    \u{280}\u{1A6} \u{282}\u{A7C5} \u{283}\u{1A9} \u{287}\u{A7B1} \u{288}\u{1AE} \u{289}\u{244} \u{28A}\u{1B1}
    \u{28B}\u{1B2} \u{28C}\u{245} \u{292}\u{1B7} \u{29D}\u{A7B2} \u{29E}\u{A7B0} \u{371}\u{370} \u{373}\u{372}
    \u{377}\u{376} \u{37B}\u{3FD} \u{37C}\u{3FE} \u{37D}\u{3FF} \u{3AC}\u{386} \u{3AD}\u{388} \u{3AE}\u{389}
    \u{3AF}\u{38A} \u{3B1}\u{391} \u{3B2}\u{392}\u{3D0} \u{3B3}\u{393} \u{3B4}\u{394} \u{3B5}\u{395}\u{3F5}
    \u{3B6}\u{396} \u{3B7}\u{397} \u{3B8}\u{398}\u{3D1}\u{3F4} \u{3B9}\u{345}\u{399}\u{1FBE}
    \u{3BA}\u{39A}\u{3F0} \u{3BB}\u{39B} \u{3BC}\u{B5}\u{39C} \u{3BD}\u{39D} \u{3BE}\u{39E} \u{3BF}\u{39F}
    \u{3C0}\u{3A0}\u{3D6} \u{3C1}\u{3A1}\u{3F1} \u{3C3}\u{3A3}\u{3C2} \u{3C4}\u{3A4} \u{3C5}\u{3A5}
    \u{3C6}\u{3A6}\u{3D5} \u{3C7}\u{3A7} \u{3C8}\u{3A8} \u{3C9}\u{3A9}\u{2126} \u{3CA}\u{3AA} \u{3CB}\u{3AB}
    \u{3CC}\u{38C} \u{3CD}\u{38E} \u{3CE}\u{38F} \u{3D7}\u{3CF} \u{3D9}\u{3D8} \u{3DB}\u{3DA} \u{3DD}\u{3DC}
    \u{3DF}\u{3DE} \u{3E1}\u{3E0} \u{3E3}\u{3E2} \u{3E5}\u{3E4} \u{3E7}\u{3E6} \u{3E9}\u{3E8} \u{3EB}\u{3EA}
    \u{3ED}\u{3EC} \u{3EF}\u{3EE} \u{3F2}\u{3F9} \u{3F3}\u{37F} \u{3F8}\u{3F7} \u{3FB}\u{3FA} \u{430}\u{410}
    \u{431}\u{411} \u{432}\u{412}\u{1C80} \u{433}\u{413} \u{434}\u{414}\u{1C81} \u{435}\u{415} \u{436}\u{416}
    \u{437}\u{417} \u{438}\u{418} \u{439}\u{419} \u{43A}\u{41A} \u{43B}\u{41B} \u{43C}\u{41C} \u{43D}\u{41D}
    \u{43E}\u{41E}\u{1C82} \u{43F}\u{41F} \u{440}\u{420} \u{441}\u{421}\u{1C83} \u{442}\u{422}\u{1C84}\u{1C85}
    \u{443}\u{423} \u{444}\u{424} \u{445}\u{425} \u{446}\u{426} \u{447}\u{427} \u{448}\u{428} \u{449}\u{429}
    \u{44A}\u{42A}\u{1C86} \u{44B}\u{42B} \u{44C}\u{42C} \u{44D}\u{42D} \u{44E}\u{42E} \u{44F}\u{42F}
    \u{450}\u{400} \u{451}\u{401} \u{452}\u{402} \u{453}\u{403} \u{454}\u{404} \u{455}\u{405} \u{456}\u{406}
    \u{457}\u{407} \u{458}\u{408} \u{459}\u{409} \u{45A}\u{40A} \u{45B}\u{40B} \u{45C}\u{40C} \u{45D}\u{40D}
    \u{45E}\u{40E} \u{45F}\u{40F} \u{461}\u{460} \u{463}\u{462}\u{1C87} \u{465}\u{464} \u{467}\u{466}
    \u{469}\u{468} \u{46B}\u{46A} \u{46D}\u{46C} \u{46F}\u{46E} \u{471}\u{470} \u{473}\u{472} \u{475}\u{474}
    \u{477}\u{476} \u{479}\u{478} \u{47B}\u{47A} \u{47D}\u{47C} \u{47F}\u{47E} \u{481}\u{480} \u{48B}\u{48A}
    \u{48D}\u{48C} \u{48F}\u{48E} \u{491}\u{490} \u{493}\u{492} \u{495}\u{494} \u{497}\u{496} \u{499}\u{498}
    \u{49B}\u{49A} \u{49D}\u{49C} \u{49F}\u{49E} \u{4A1}\u{4A0} \u{4A3}\u{4A2} \u{4A5}\u{4A4} \u{4A7}\u{4A6}
    \u{4A9}\u{4A8} \u{4AB}\u{4AA} \u{4AD}\u{4AC} \u{4AF}\u{4AE} \u{4B1}\u{4B0} \u{4B3}\u{4B2} \u{4B5}\u{4B4}
    \u{4B7}\u{4B6} \u{4B9}\u{4B8} \u{4BB}\u{4BA} \u{4BD}\u{4BC} \u{4BF}\u{4BE} \u{4C2}\u{4C1} \u{4C4}\u{4C3}
    \u{4C6}\u{4C5} \u{4C8}\u{4C7} \u{4CA}\u{4C9} \u{4CC}\u{4CB} \u{4CE}\u{4CD} \u{4CF}\u{4C0} \u{4D1}\u{4D0}
    \u{4D3}\u{4D2} \u{4D5}\u{4D4} \u{4D7}\u{4D6} \u{4D9}\u{4D8} \u{4DB}\u{4DA} \u{4DD}\u{4DC} \u{4DF}\u{4DE}
    \u{4E1}\u{4E0} \u{4E3}\u{4E2} \u{4E5}\u{4E4} \u{4E7}\u{4E6} \u{4E9}\u{4E8} \u{4EB}\u{4EA} \u{4ED}\u{4EC}
    \u{4EF}\u{4EE} \u{4F1}\u{4F0} \u{4F3}\u{4F2} \u{4F5}\u{4F4} \u{4F7}\u{4F6} \u{4F9}\u{4F8} \u{4FB}\u{4FA}
    \u{4FD}\u{4FC} \u{4FF}\u{4FE} \u{501}\u{500} \u{503}\u{502} \u{505}\u{504} \u{507}\u{506} \u{509}\u{508}
    \u{50B}\u{50A} \u{50D}\u{50C} \u{50F}\u{50E} \u{511}\u{510} \u{513}\u{512} \u{515}\u{514} \u{517}\u{516}
    \u{519}\u{518} \u{51B}\u{51A} \u{51D}\u{51C} \u{51F}\u{51E} \u{521}\u{520} \u{523}\u{522} \u{525}\u{524}
    \u{527}\u{526} \u{529}\u{528} \u{52B}\u{52A} \u{52D}\u{52C} \u{52F}\u{52E} \u{561}\u{531} \u{562}\u{532}
    \u{563}\u{533} \u{564}\u{534} \u{565}\u{535} \u{566}\u{536} \u{567}\u{537} \u{568}\u{538} \u{569}\u{539}
    \u{56A}\u{53A} \u{56B}\u{53B} \u{56C}\u{53C} \u{56D}\u{53D} \u{56E}\u{53E} \u{56F}\u{53F} \u{570}\u{540}
    \u{571}\u{541} \u{572}\u{542} \u{573}\u{543} \u{574}\u{544} \u{575}\u{545} \u{576}\u{546} \u{577}\u{547}
    \u{578}\u{548} \u{579}\u{549} \u{57A}\u{54A} \u{57B}\u{54B} \u{57C}\u{54C} \u{57D}\u{54D} \u{57E}\u{54E}
    \u{57F}\u{54F} \u{580}\u{550} \u{581}\u{551} \u{582}\u{552} \u{583}\u{553} \u{584}\u{554} \u{585}\u{555}
    \u{586}\u{556} \u{10D0}\u{1C90} \u{10D1}\u{1C91} \u{10D2}\u{1C92} \u{10D3}\u{1C93} \u{10D4}\u{1C94}
    \u{10D5}\u{1C95} \u{10D6}\u{1C96} \u{10D7}\u{1C97} \u{10D8}\u{1C98} \u{10D9}\u{1C99} \u{10DA}\u{1C9A}
    \u{10DB}\u{1C9B} \u{10DC}\u{1C9C} \u{10DD}\u{1C9D} \u{10DE}\u{1C9E} \u{10DF}\u{1C9F} \u{10E0}\u{1CA0}
    \u{10E1}\u{1CA1} \u{10E2}\u{1CA2} \u{10E3}\u{1CA3} \u{10E4}\u{1CA4} \u{10E5}\u{1CA5} \u{10E6}\u{1CA6}
    \u{10E7}\u{1CA7} \u{10E8}\u{1CA8} \u{10E9}\u{1CA9} \u{10EA}\u{1CAA} \u{10EB}\u{1CAB} \u{10EC}\u{1CAC}
    \u{10ED}\u{1CAD} \u{10EE}\u{1CAE} \u{10EF}\u{1CAF} \u{10F0}\u{1CB0} \u{10F1}\u{1CB1} \u{10F2}\u{1CB2}
    \u{10F3}\u{1CB3} \u{10F4}\u{1CB4} \u{10F5}\u{1CB5} \u{10F6}\u{1CB6} \u{10F7}\u{1CB7} \u{10F8}\u{1CB8}
    \u{10F9}\u{1CB9} \u{10FA}\u{1CBA} \u{10FD}\u{1CBD} \u{10FE}\u{1CBE} \u{10FF}\u{1CBF} \u{13A0}\u{AB70}
    \u{13A1}\u{AB71} \u{13A2}\u{AB72} \u{13A3}\u{AB73} \u{13A4}\u{AB74} \u{13A5}\u{AB75} \u{13A6}\u{AB76}
    \u{13A7}\u{AB77} \u{13A8}\u{AB78} \u{13A9}\u{AB79} \u{13AA}\u{AB7A} \u{13AB}\u{AB7B} \u{13AC}\u{AB7C}
    \u{13AD}\u{AB7D} \u{13AE}\u{AB7E} \u{13AF}\u{AB7F} \u{13B0}\u{AB80} \u{13B1}\u{AB81} \u{13B2}\u{AB82}
    \u{13B3}\u{AB83} \u{13B4}\u{AB84} \u{13B5}\u{AB85} \u{13B6}\u{AB86} \u{13B7}\u{AB87} \u{13B8}\u{AB88}
    \u{13B9}\u{AB89} \u{13BA}\u{AB8A} \u{13BB}\u{AB8B} \u{13BC}\u{AB8C} \u{13BD}\u{AB8D} \u{13BE}\u{AB8E}
    \u{13BF}\u{AB8F} \u{13C0}\u{AB90} \u{13C1}\u{AB91} \u{13C2}\u{AB92} \u{13C3}\u{AB93} \u{13C4}\u{AB94}
    \u{13C5}\u{AB95} \u{13C6}\u{AB96} \u{13C7}\u{AB97} \u{13C8}\u{AB98} \u{13C9}\u{AB99} \u{13CA}\u{AB9A}
    \u{13CB}\u{AB9B} \u{13CC}\u{AB9C} \u{13CD}\u{AB9D} \u{13CE}\u{AB9E} \u{13CF}\u{AB9F} \u{13D0}\u{ABA0}
    \u{13D1}\u{ABA1} \u{13D2}\u{ABA2} \u{13D3}\u{ABA3} \u{13D4}\u{ABA4} \u{13D5}\u{ABA5} \u{13D6}\u{ABA6}
    \u{13D7}\u{ABA7} \u{13D8}\u{ABA8} \u{13D9}\u{ABA9} \u{13DA}\u{ABAA} \u{13DB}\u{ABAB} \u{13DC}\u{ABAC}
    \u{13DD}\u{ABAD} \u{13DE}\u{ABAE} \u{13DF}\u{ABAF} \u{13E0}\u{ABB0} \u{13E1}\u{ABB1} \u{13E2}\u{ABB2}
    \u{13E3}\u{ABB3} \u{13E4}\u{ABB4} \u{13E5}\u{ABB5} \u{13E6}\u{ABB6} \u{13E7}\u{ABB7} \u{13E8}\u{ABB8}
    \u{13E9}\u{ABB9} \u{13EA}\u{ABBA} \u{13EB}\u{ABBB} \u{13EC}\u{ABBC} \u{13ED}\u{ABBD} \u{13EE}\u{ABBE}
    \u{13EF}\u{ABBF} \u{13F0}\u{13F8} \u{13F1}\u{13F9} \u{13F2}\u{13FA} \u{13F3}\u{13FB} \u{13F4}\u{13FC}
    \u{13F5}\u{13FD} \u{1D79}\u{A77D} \u{1D7D}\u{2C63} \u{1D8E}\u{A7C6} \u{1E01}\u{1E00} \u{1E03}\u{1E02}
    \u{1E05}\u{1E04} \u{1E07}\u{1E06} \u{1E09}\u{1E08} \u{1E0B}\u{1E0A} \u{1E0D}\u{1E0C} \u{1E0F}\u{1E0E}
    \u{1E11}\u{1E10} \u{1E13}\u{1E12} \u{1E15}\u{1E14} \u{1E17}\u{1E16} \u{1E19}\u{1E18} \u{1E1B}\u{1E1A}
    \u{1E1D}\u{1E1C} \u{1E1F}\u{1E1E} \u{1E21}\u{1E20} \u{1E23}\u{1E22} \u{1E25}\u{1E24} \u{1E27}\u{1E26}
    \u{1E29}\u{1E28} \u{1E2B}\u{1E2A} \u{1E2D}\u{1E2C} \u{1E2F}\u{1E2E} \u{1E31}\u{1E30} \u{1E33}\u{1E32}
    \u{1E35}\u{1E34} \u{1E37}\u{1E36} \u{1E39}\u{1E38} \u{1E3B}\u{1E3A} \u{1E3D}\u{1E3C} \u{1E3F}\u{1E3E}
    \u{1E41}\u{1E40} \u{1E43}\u{1E42} \u{1E45}\u{1E44} \u{1E47}\u{1E46} \u{1E49}\u{1E48} \u{1E4B}\u{1E4A}
    \u{1E4D}\u{1E4C} \u{1E4F}\u{1E4E} \u{1E51}\u{1E50} \u{1E53}\u{1E52} \u{1E55}\u{1E54} \u{1E57}\u{1E56}
    \u{1E59}\u{1E58} \u{1E5B}\u{1E5A} \u{1E5D}\u{1E5C} \u{1E5F}\u{1E5E} \u{1E61}\u{1E60}\u{1E9B}
    \u{1E63}\u{1E62} \u{1E65}\u{1E64} \u{1E67}\u{1E66} \u{1E69}\u{1E68} \u{1E6B}\u{1E6A} \u{1E6D}\u{1E6C}
    \u{1E6F}\u{1E6E} \u{1E71}\u{1E70} \u{1E73}\u{1E72} \u{1E75}\u{1E74} \u{1E77}\u{1E76} \u{1E79}\u{1E78}
    \u{1E7B}\u{1E7A} \u{1E7D}\u{1E7C} \u{1E7F}\u{1E7E} \u{1E81}\u{1E80} \u{1E83}\u{1E82} \u{1E85}\u{1E84}
    \u{1E87}\u{1E86} \u{1E89}\u{1E88} \u{1E8B}\u{1E8A} \u{1E8D}\u{1E8C} \u{1E8F}\u{1E8E} \u{1E91}\u{1E90}
    \u{1E93}\u{1E92} \u{1E95}\u{1E94} \u{1EA1}\u{1EA0} \u{1EA3}\u{1EA2} \u{1EA5}\u{1EA4} \u{1EA7}\u{1EA6}
    \u{1EA9}\u{1EA8} \u{1EAB}\u{1EAA} \u{1EAD}\u{1EAC} \u{1EAF}\u{1EAE} \u{1EB1}\u{1EB0} \u{1EB3}\u{1EB2}
    \u{1EB5}\u{1EB4} \u{1EB7}\u{1EB6} \u{1EB9}\u{1EB8} \u{1EBB}\u{1EBA} \u{1EBD}\u{1EBC} \u{1EBF}\u{1EBE}
    \u{1EC1}\u{1EC0} \u{1EC3}\u{1EC2} \u{1EC5}\u{1EC4} \u{1EC7}\u{1EC6} \u{1EC9}\u{1EC8} \u{1ECB}\u{1ECA}
    \u{1ECD}\u{1ECC} \u{1ECF}\u{1ECE} \u{1ED1}\u{1ED0} \u{1ED3}\u{1ED2} \u{1ED5}\u{1ED4} \u{1ED7}\u{1ED6}
    \u{1ED9}\u{1ED8} \u{1EDB}\u{1EDA} \u{1EDD}\u{1EDC} \u{1EDF}\u{1EDE} \u{1EE1}\u{1EE0} \u{1EE3}\u{1EE2}
    \u{1EE5}\u{1EE4} \u{1EE7}\u{1EE6} \u{1EE9}\u{1EE8} \u{1EEB}\u{1EEA} \u{1EED}\u{1EEC} \u{1EEF}\u{1EEE}
    \u{1EF1}\u{1EF0} \u{1EF3}\u{1EF2} \u{1EF5}\u{1EF4} \u{1EF7}\u{1EF6} \u{1EF9}\u{1EF8} \u{1EFB}\u{1EFA}
    \u{1EFD}\u{1EFC} \u{1EFF}\u{1EFE} \u{1F00}\u{1F08} \u{1F01}\u{1F09} \u{1F02}\u{1F0A} \u{1F03}\u{1F0B}
    \u{1F04}\u{1F0C} \u{1F05}\u{1F0D} \u{1F06}\u{1F0E} \u{1F07}\u{1F0F} \u{1F10}\u{1F18} \u{1F11}\u{1F19}
    \u{1F12}\u{1F1A} \u{1F13}\u{1F1B} \u{1F14}\u{1F1C} \u{1F15}\u{1F1D} \u{1F20}\u{1F28} \u{1F21}\u{1F29}
    \u{1F22}\u{1F2A} \u{1F23}\u{1F2B} \u{1F24}\u{1F2C} \u{1F25}\u{1F2D} \u{1F26}\u{1F2E} \u{1F27}\u{1F2F}
    \u{1F30}\u{1F38} \u{1F31}\u{1F39} \u{1F32}\u{1F3A} \u{1F33}\u{1F3B} \u{1F34}\u{1F3C} \u{1F35}\u{1F3D}
    \u{1F36}\u{1F3E} \u{1F37}\u{1F3F} \u{1F40}\u{1F48} \u{1F41}\u{1F49} \u{1F42}\u{1F4A} \u{1F43}\u{1F4B}
    \u{1F44}\u{1F4C} \u{1F45}\u{1F4D} \u{1F51}\u{1F59} \u{1F53}\u{1F5B} \u{1F55}\u{1F5D} \u{1F57}\u{1F5F}
    \u{1F60}\u{1F68} \u{1F61}\u{1F69} \u{1F62}\u{1F6A} \u{1F63}\u{1F6B} \u{1F64}\u{1F6C} \u{1F65}\u{1F6D}
    \u{1F66}\u{1F6E} \u{1F67}\u{1F6F} \u{1F70}\u{1FBA} \u{1F71}\u{1FBB} \u{1F72}\u{1FC8} \u{1F73}\u{1FC9}
    \u{1F74}\u{1FCA} \u{1F75}\u{1FCB} \u{1F76}\u{1FDA} \u{1F77}\u{1FDB} \u{1F78}\u{1FF8} \u{1F79}\u{1FF9}
    \u{1F7A}\u{1FEA} \u{1F7B}\u{1FEB} \u{1F7C}\u{1FFA} \u{1F7D}\u{1FFB} \u{1FB0}\u{1FB8} \u{1FB1}\u{1FB9}
    \u{1FD0}\u{1FD8} \u{1FD1}\u{1FD9} \u{1FE0}\u{1FE8} \u{1FE1}\u{1FE9} \u{1FE5}\u{1FEC} \u{214E}\u{2132}
    \u{2170}\u{2160} \u{2171}\u{2161} \u{2172}\u{2162} \u{2173}\u{2163} \u{2174}\u{2164} \u{2175}\u{2165}
    \u{2176}\u{2166} \u{2177}\u{2167} \u{2178}\u{2168} \u{2179}\u{2169} \u{217A}\u{216A} \u{217B}\u{216B}
    \u{217C}\u{216C} \u{217D}\u{216D} \u{217E}\u{216E} \u{217F}\u{216F} \u{2184}\u{2183} \u{24D0}\u{24B6}
    \u{24D1}\u{24B7} \u{24D2}\u{24B8} \u{24D3}\u{24B9} \u{24D4}\u{24BA} \u{24D5}\u{24BB} \u{24D6}\u{24BC}
    \u{24D7}\u{24BD} \u{24D8}\u{24BE} \u{24D9}\u{24BF} \u{24DA}\u{24C0} \u{24DB}\u{24C1} \u{24DC}\u{24C2}
    \u{24DD}\u{24C3} \u{24DE}\u{24C4} \u{24DF}\u{24C5} \u{24E0}\u{24C6} \u{24E1}\u{24C7} \u{24E2}\u{24C8}
    \u{24E3}\u{24C9} \u{24E4}\u{24CA} \u{24E5}\u{24CB} \u{24E6}\u{24CC} \u{24E7}\u{24CD} \u{24E8}\u{24CE}
    \u{24E9}\u{24CF} \u{2C30}\u{2C00} \u{2C31}\u{2C01} \u{2C32}\u{2C02} \u{2C33}\u{2C03} \u{2C34}\u{2C04}
    \u{2C35}\u{2C05} \u{2C36}\u{2C06} \u{2C37}\u{2C07} \u{2C38}\u{2C08} \u{2C39}\u{2C09} \u{2C3A}\u{2C0A}
    \u{2C3B}\u{2C0B} \u{2C3C}\u{2C0C} \u{2C3D}\u{2C0D} \u{2C3E}\u{2C0E} \u{2C3F}\u{2C0F} \u{2C40}\u{2C10}
    \u{2C41}\u{2C11} \u{2C42}\u{2C12} \u{2C43}\u{2C13} \u{2C44}\u{2C14} \u{2C45}\u{2C15} \u{2C46}\u{2C16}
    \u{2C47}\u{2C17} \u{2C48}\u{2C18} \u{2C49}\u{2C19} \u{2C4A}\u{2C1A} \u{2C4B}\u{2C1B} \u{2C4C}\u{2C1C}
    \u{2C4D}\u{2C1D} \u{2C4E}\u{2C1E} \u{2C4F}\u{2C1F} \u{2C50}\u{2C20} \u{2C51}\u{2C21} \u{2C52}\u{2C22}
    \u{2C53}\u{2C23} \u{2C54}\u{2C24} \u{2C55}\u{2C25} \u{2C56}\u{2C26} \u{2C57}\u{2C27} \u{2C58}\u{2C28}
    \u{2C59}\u{2C29} \u{2C5A}\u{2C2A} \u{2C5B}\u{2C2B} \u{2C5C}\u{2C2C} \u{2C5D}\u{2C2D} \u{2C5E}\u{2C2E}
    \u{2C5F}\u{2C2F} \u{2C61}\u{2C60} \u{2C65}\u{23A} \u{2C66}\u{23E} \u{2C68}\u{2C67} \u{2C6A}\u{2C69}
    \u{2C6C}\u{2C6B} \u{2C73}\u{2C72} \u{2C76}\u{2C75} \u{2C81}\u{2C80} \u{2C83}\u{2C82} \u{2C85}\u{2C84}
    \u{2C87}\u{2C86} \u{2C89}\u{2C88} \u{2C8B}\u{2C8A} \u{2C8D}\u{2C8C} \u{2C8F}\u{2C8E} \u{2C91}\u{2C90}
    \u{2C93}\u{2C92} \u{2C95}\u{2C94} \u{2C97}\u{2C96} \u{2C99}\u{2C98} \u{2C9B}\u{2C9A} \u{2C9D}\u{2C9C}
    \u{2C9F}\u{2C9E} \u{2CA1}\u{2CA0} \u{2CA3}\u{2CA2} \u{2CA5}\u{2CA4} \u{2CA7}\u{2CA6} \u{2CA9}\u{2CA8}
    \u{2CAB}\u{2CAA} \u{2CAD}\u{2CAC} \u{2CAF}\u{2CAE} \u{2CB1}\u{2CB0} \u{2CB3}\u{2CB2} \u{2CB5}\u{2CB4}
    \u{2CB7}\u{2CB6} \u{2CB9}\u{2CB8} \u{2CBB}\u{2CBA} \u{2CBD}\u{2CBC} \u{2CBF}\u{2CBE} \u{2CC1}\u{2CC0}
    \u{2CC3}\u{2CC2} \u{2CC5}\u{2CC4} \u{2CC7}\u{2CC6} \u{2CC9}\u{2CC8} \u{2CCB}\u{2CCA} \u{2CCD}\u{2CCC}
    \u{2CCF}\u{2CCE} \u{2CD1}\u{2CD0} \u{2CD3}\u{2CD2} \u{2CD5}\u{2CD4} \u{2CD7}\u{2CD6} \u{2CD9}\u{2CD8}
    \u{2CDB}\u{2CDA} \u{2CDD}\u{2CDC} \u{2CDF}\u{2CDE} \u{2CE1}\u{2CE0} \u{2CE3}\u{2CE2} \u{2CEC}\u{2CEB}
    \u{2CEE}\u{2CED} \u{2CF3}\u{2CF2} \u{2D00}\u{10A0} \u{2D01}\u{10A1} \u{2D02}\u{10A2} \u{2D03}\u{10A3}
    \u{2D04}\u{10A4} \u{2D05}\u{10A5} \u{2D06}\u{10A6} \u{2D07}\u{10A7} \u{2D08}\u{10A8} \u{2D09}\u{10A9}
    \u{2D0A}\u{10AA} \u{2D0B}\u{10AB} \u{2D0C}\u{10AC} \u{2D0D}\u{10AD} \u{2D0E}\u{10AE} \u{2D0F}\u{10AF}
    \u{2D10}\u{10B0} \u{2D11}\u{10B1} \u{2D12}\u{10B2} \u{2D13}\u{10B3} \u{2D14}\u{10B4} \u{2D15}\u{10B5}
    \u{2D16}\u{10B6} \u{2D17}\u{10B7} \u{2D18}\u{10B8} \u{2D19}\u{10B9} \u{2D1A}\u{10BA} \u{2D1B}\u{10BB}
    \u{2D1C}\u{10BC} \u{2D1D}\u{10BD} \u{2D1E}\u{10BE} \u{2D1F}\u{10BF} \u{2D20}\u{10C0} \u{2D21}\u{10C1}
    \u{2D22}\u{10C2} \u{2D23}\u{10C3} \u{2D24}\u{10C4} \u{2D25}\u{10C5} \u{2D27}\u{10C7} \u{2D2D}\u{10CD}
    \u{A641}\u{A640} \u{A643}\u{A642} \u{A645}\u{A644} \u{A647}\u{A646} \u{A649}\u{A648}
    \u{A64B}\u{1C88}\u{A64A} \u{A64D}\u{A64C} \u{A64F}\u{A64E} \u{A651}\u{A650} \u{A653}\u{A652}
    \u{A655}\u{A654} \u{A657}\u{A656} \u{A659}\u{A658} \u{A65B}\u{A65A} \u{A65D}\u{A65C} \u{A65F}\u{A65E}
    \u{A661}\u{A660} \u{A663}\u{A662} \u{A665}\u{A664} \u{A667}\u{A666} \u{A669}\u{A668} \u{A66B}\u{A66A}
    \u{A66D}\u{A66C} \u{A681}\u{A680} \u{A683}\u{A682} \u{A685}\u{A684} \u{A687}\u{A686} \u{A689}\u{A688}
    \u{A68B}\u{A68A} \u{A68D}\u{A68C} \u{A68F}\u{A68E} \u{A691}\u{A690} \u{A693}\u{A692} \u{A695}\u{A694}
    \u{A697}\u{A696} \u{A699}\u{A698} \u{A69B}\u{A69A} \u{A723}\u{A722} \u{A725}\u{A724} \u{A727}\u{A726}
    \u{A729}\u{A728} \u{A72B}\u{A72A} \u{A72D}\u{A72C} \u{A72F}\u{A72E} \u{A733}\u{A732} \u{A735}\u{A734}
    \u{A737}\u{A736} \u{A739}\u{A738} \u{A73B}\u{A73A} \u{A73D}\u{A73C} \u{A73F}\u{A73E} \u{A741}\u{A740}
    \u{A743}\u{A742} \u{A745}\u{A744} \u{A747}\u{A746} \u{A749}\u{A748} \u{A74B}\u{A74A} \u{A74D}\u{A74C}
    \u{A74F}\u{A74E} \u{A751}\u{A750} \u{A753}\u{A752} \u{A755}\u{A754} \u{A757}\u{A756} \u{A759}\u{A758}
    \u{A75B}\u{A75A} \u{A75D}\u{A75C} \u{A75F}\u{A75E} \u{A761}\u{A760} \u{A763}\u{A762} \u{A765}\u{A764}
    \u{A767}\u{A766} \u{A769}\u{A768} \u{A76B}\u{A76A} \u{A76D}\u{A76C} \u{A76F}\u{A76E} \u{A77A}\u{A779}
    \u{A77C}\u{A77B} \u{A77F}\u{A77E} \u{A781}\u{A780} \u{A783}\u{A782} \u{A785}\u{A784} \u{A787}\u{A786}
    \u{A78C}\u{A78B} \u{A791}\u{A790} \u{A793}\u{A792} \u{A794}\u{A7C4} \u{A797}\u{A796} \u{A799}\u{A798}
    \u{A79B}\u{A79A} \u{A79D}\u{A79C} \u{A79F}\u{A79E} \u{A7A1}\u{A7A0} \u{A7A3}\u{A7A2} \u{A7A5}\u{A7A4}
    \u{A7A7}\u{A7A6} \u{A7A9}\u{A7A8} \u{A7B5}\u{A7B4} \u{A7B7}\u{A7B6} \u{A7B9}\u{A7B8} \u{A7BB}\u{A7BA}
    \u{A7BD}\u{A7BC} \u{A7BF}\u{A7BE} \u{A7C1}\u{A7C0} \u{A7C3}\u{A7C2} \u{A7C8}\u{A7C7} \u{A7CA}\u{A7C9}
    \u{A7D1}\u{A7D0} \u{A7D7}\u{A7D6} \u{A7D9}\u{A7D8} \u{A7F6}\u{A7F5} \u{AB53}\u{A7B3} \u{FF41}\u{FF21}
    \u{FF42}\u{FF22} \u{FF43}\u{FF23} \u{FF44}\u{FF24} \u{FF45}\u{FF25} \u{FF46}\u{FF26} \u{FF47}\u{FF27}
    \u{FF48}\u{FF28} \u{FF49}\u{FF29} \u{FF4A}\u{FF2A} \u{FF4B}\u{FF2B} \u{FF4C}\u{FF2C} \u{FF4D}\u{FF2D}
    \u{FF4E}\u{FF2E} \u{FF4F}\u{FF2F} \u{FF50}\u{FF30} \u{FF51}\u{FF31} \u{FF52}\u{FF32} \u{FF53}\u{FF33}
    \u{FF54}\u{FF34} \u{FF55}\u{FF35} \u{FF56}\u{FF36} \u{FF57}\u{FF37} \u{FF58}\u{FF38} \u{FF59}\u{FF39}
    \u{FF5A}\u{FF3A} \u{10428}\u{10400} \u{10429}\u{10401} \u{1042A}\u{10402} \u{1042B}\u{10403}
    \u{1042C}\u{10404} \u{1042D}\u{10405} \u{1042E}\u{10406} \u{1042F}\u{10407} \u{10430}\u{10408}
    \u{10431}\u{10409} \u{10432}\u{1040A} \u{10433}\u{1040B} \u{10434}\u{1040C} \u{10435}\u{1040D}
    \u{10436}\u{1040E} \u{10437}\u{1040F} \u{10438}\u{10410} \u{10439}\u{10411} \u{1043A}\u{10412}
    \u{1043B}\u{10413} \u{1043C}\u{10414} \u{1043D}\u{10415} \u{1043E}\u{10416} \u{1043F}\u{10417}
    \u{10440}\u{10418} \u{10441}\u{10419} \u{10442}\u{1041A} \u{10443}\u{1041B} \u{10444}\u{1041C}
    \u{10445}\u{1041D} \u{10446}\u{1041E} \u{10447}\u{1041F} \u{10448}\u{10420} \u{10449}\u{10421}
    \u{1044A}\u{10422} \u{1044B}\u{10423} \u{1044C}\u{10424} \u{1044D}\u{10425} \u{1044E}\u{10426}
    \u{1044F}\u{10427} \u{104D8}\u{104B0} \u{104D9}\u{104B1} \u{104DA}\u{104B2} \u{104DB}\u{104B3}
    \u{104DC}\u{104B4} \u{104DD}\u{104B5} \u{104DE}\u{104B6} \u{104DF}\u{104B7} \u{104E0}\u{104B8}
    \u{104E1}\u{104B9} \u{104E2}\u{104BA} \u{104E3}\u{104BB} \u{104E4}\u{104BC} \u{104E5}\u{104BD}
    \u{104E6}\u{104BE} \u{104E7}\u{104BF} \u{104E8}\u{104C0} \u{104E9}\u{104C1} \u{104EA}\u{104C2}
    \u{104EB}\u{104C3} \u{104EC}\u{104C4} \u{104ED}\u{104C5} \u{104EE}\u{104C6} \u{104EF}\u{104C7}
    \u{104F0}\u{104C8} \u{104F1}\u{104C9} \u{104F2}\u{104CA} \u{104F3}\u{104CB} \u{104F4}\u{104CC}
    \u{104F5}\u{104CD} \u{104F6}\u{104CE} \u{104F7}\u{104CF} \u{104F8}\u{104D0} \u{104F9}\u{104D1}
    \u{104FA}\u{104D2} \u{104FB}\u{104D3} \u{10597}\u{10570} \u{10598}\u{10571} \u{10599}\u{10572}
    \u{1059A}\u{10573} \u{1059B}\u{10574} \u{1059C}\u{10575} \u{1059D}\u{10576} \u{1059E}\u{10577}
    \u{1059F}\u{10578} \u{105A0}\u{10579} \u{105A1}\u{1057A} \u{105A3}\u{1057C} \u{105A4}\u{1057D}
    \u{105A5}\u{1057E} \u{105A6}\u{1057F} \u{105A7}\u{10580} \u{105A8}\u{10581} \u{105A9}\u{10582}
    \u{105AA}\u{10583} \u{105AB}\u{10584} \u{105AC}\u{10585} \u{105AD}\u{10586} \u{105AE}\u{10587}
    \u{105AF}\u{10588} \u{105B0}\u{10589} \u{105B1}\u{1058A} \u{105B3}\u{1058C} \u{105B4}\u{1058D}
    \u{105B5}\u{1058E} \u{105B6}\u{1058F} \u{105B7}\u{10590} \u{105B8}\u{10591} \u{105B9}\u{10592}
    \u{105BB}\u{10594} \u{105BC}\u{10595} \u{10CC0}\u{10C80} \u{10CC1}\u{10C81} \u{10CC2}\u{10C82}
    \u{10CC3}\u{10C83} \u{10CC4}\u{10C84} \u{10CC5}\u{10C85} \u{10CC6}\u{10C86} \u{10CC7}\u{10C87}
    \u{10CC8}\u{10C88} \u{10CC9}\u{10C89} \u{10CCA}\u{10C8A} \u{10CCB}\u{10C8B} \u{10CCC}\u{10C8C}
    \u{10CCD}\u{10C8D} \u{10CCE}\u{10C8E} \u{10CCF}\u{10C8F} \u{10CD0}\u{10C90} \u{10CD1}\u{10C91}
    \u{10CD2}\u{10C92} \u{10CD3}\u{10C93} \u{10CD4}\u{10C94} \u{10CD5}\u{10C95} \u{10CD6}\u{10C96}
    \u{10CD7}\u{10C97} \u{10CD8}\u{10C98} \u{10CD9}\u{10C99} \u{10CDA}\u{10C9A} \u{10CDB}\u{10C9B}
    \u{10CDC}\u{10C9C} \u{10CDD}\u{10C9D} \u{10CDE}\u{10C9E} \u{10CDF}\u{10C9F} \u{10CE0}\u{10CA0}
    \u{10CE1}\u{10CA1} \u{10CE2}\u{10CA2} \u{10CE3}\u{10CA3} \u{10CE4}\u{10CA4} \u{10CE5}\u{10CA5}
    \u{10CE6}\u{10CA6} \u{10CE7}\u{10CA7} \u{10CE8}\u{10CA8} \u{10CE9}\u{10CA9} \u{10CEA}\u{10CAA}
    \u{10CEB}\u{10CAB} \u{10CEC}\u{10CAC} \u{10CED}\u{10CAD} \u{10CEE}\u{10CAE} \u{10CEF}\u{10CAF}
    \u{10CF0}\u{10CB0} \u{10CF1}\u{10CB1} \u{10CF2}\u{10CB2} \u{118C0}\u{118A0} \u{118C1}\u{118A1}
    \u{118C2}\u{118A2} \u{118C3}\u{118A3} \u{118C4}\u{118A4} \u{118C5}\u{118A5} \u{118C6}\u{118A6}
    \u{118C7}\u{118A7} \u{118C8}\u{118A8} \u{118C9}\u{118A9} \u{118CA}\u{118AA} \u{118CB}\u{118AB}
    \u{118CC}\u{118AC} \u{118CD}\u{118AD} \u{118CE}\u{118AE} \u{118CF}\u{118AF} \u{118D0}\u{118B0}
    \u{118D1}\u{118B1} \u{118D2}\u{118B2} \u{118D3}\u{118B3} \u{118D4}\u{118B4} \u{118D5}\u{118B5}
    \u{118D6}\u{118B6} \u{118D7}\u{118B7} \u{118D8}\u{118B8} \u{118D9}\u{118B9} \u{118DA}\u{118BA}
    \u{118DB}\u{118BB} \u{118DC}\u{118BC} \u{118DD}\u{118BD} \u{118DE}\u{118BE} \u{118DF}\u{118BF}
    \u{16E60}\u{16E40} \u{16E61}\u{16E41} \u{16E62}\u{16E42} \u{16E63}\u{16E43} \u{16E64}\u{16E44}
    \u{16E65}\u{16E45} \u{16E66}\u{16E46} \u{16E67}\u{16E47} \u{16E68}\u{16E48} \u{16E69}\u{16E49}
    \u{16E6A}\u{16E4A} \u{16E6B}\u{16E4B} \u{16E6C}\u{16E4C} \u{16E6D}\u{16E4D} \u{16E6E}\u{16E4E}
    \u{16E6F}\u{16E4F} \u{16E70}\u{16E50} \u{16E71}\u{16E51} \u{16E72}\u{16E52} \u{16E73}\u{16E53}
    \u{16E74}\u{16E54} \u{16E75}\u{16E55} \u{16E76}\u{16E56} \u{16E77}\u{16E57} \u{16E78}\u{16E58}
    \u{16E79}\u{16E59} \u{16E7A}\u{16E5A} \u{16E7B}\u{16E5B} \u{16E7C}\u{16E5C} \u{16E7D}\u{16E5D}
    \u{16E7E}\u{16E5E} \u{16E7F}\u{16E5F} \u{1E922}\u{1E900} \u{1E923}\u{1E901} \u{1E924}\u{1E902}
    \u{1E925}\u{1E903} \u{1E926}\u{1E904} \u{1E927}\u{1E905} \u{1E928}\u{1E906} \u{1E929}\u{1E907}
    \u{1E92A}\u{1E908} \u{1E92B}\u{1E909} \u{1E92C}\u{1E90A} \u{1E92D}\u{1E90B} \u{1E92E}\u{1E90C}
    \u{1E92F}\u{1E90D} \u{1E930}\u{1E90E} \u{1E931}\u{1E90F} \u{1E932}\u{1E910} \u{1E933}\u{1E911}
    \u{1E934}\u{1E912} \u{1E935}\u{1E913} \u{1E936}\u{1E914} \u{1E937}\u{1E915} \u{1E938}\u{1E916}
    \u{1E939}\u{1E917} \u{1E93A}\u{1E918} \u{1E93B}\u{1E919} \u{1E93C}\u{1E91A} \u{1E93D}\u{1E91B}
    \u{1E93E}\u{1E91C} \u{1E93F}\u{1E91D} \u{1E940}\u{1E91E} \u{1E941}\u{1E91F} \u{1E942}\u{1E920}
    \u{1E943}\u{1E921}
    """

  /// Scalars that occur in some character's multi-scalar full folding (`ß` → `ss`, `ᾳ` → `αι`):
  /// text matching them under full folding need not hold any of their own class.
  static let insideMultiScalarFoldings: Set<UInt32> = [
    0x61, 0x66, 0x68, 0x69, 0x6A, 0x6C, 0x6E, 0x73, 0x74, 0x77, 0x79, 0x2BC, 0x2BE, 0x300, 0x301, 0x307, 0x308, 0x30A,
    0x30C, 0x313, 0x331, 0x342, 0x3AC, 0x3AE, 0x3B1, 0x3B7, 0x3B9, 0x3C1, 0x3C5, 0x3C9, 0x3CE, 0x565, 0x56B, 0x56D,
    0x574, 0x576, 0x57E, 0x582, 0x1F00, 0x1F01, 0x1F02, 0x1F03, 0x1F04, 0x1F05, 0x1F06, 0x1F07, 0x1F20, 0x1F21, 0x1F22,
    0x1F23, 0x1F24, 0x1F25, 0x1F26, 0x1F27, 0x1F60, 0x1F61, 0x1F62, 0x1F63, 0x1F64, 0x1F65, 0x1F66, 0x1F67, 0x1F70,
    0x1F74, 0x1F7C,
  ]

  /// Scalars whose full folding is several scalars (`ß` → `ss`): no class holds their matches.
  static let foldedToSeveral: Set<UInt32> = [
    0xDF, 0x130, 0x149, 0x1F0, 0x390, 0x3B0, 0x587, 0x1E96, 0x1E97, 0x1E98, 0x1E99, 0x1E9A, 0x1E9E, 0x1F50, 0x1F52,
    0x1F54, 0x1F56, 0x1F80, 0x1F81, 0x1F82, 0x1F83, 0x1F84, 0x1F85, 0x1F86, 0x1F87, 0x1F88, 0x1F89, 0x1F8A, 0x1F8B,
    0x1F8C, 0x1F8D, 0x1F8E, 0x1F8F, 0x1F90, 0x1F91, 0x1F92, 0x1F93, 0x1F94, 0x1F95, 0x1F96, 0x1F97, 0x1F98, 0x1F99,
    0x1F9A, 0x1F9B, 0x1F9C, 0x1F9D, 0x1F9E, 0x1F9F, 0x1FA0, 0x1FA1, 0x1FA2, 0x1FA3, 0x1FA4, 0x1FA5, 0x1FA6, 0x1FA7,
    0x1FA8, 0x1FA9, 0x1FAA, 0x1FAB, 0x1FAC, 0x1FAD, 0x1FAE, 0x1FAF, 0x1FB2, 0x1FB3, 0x1FB4, 0x1FB6, 0x1FB7, 0x1FBC,
    0x1FC2, 0x1FC3, 0x1FC4, 0x1FC6, 0x1FC7, 0x1FCC, 0x1FD2, 0x1FD3, 0x1FD6, 0x1FD7, 0x1FE2, 0x1FE3, 0x1FE4, 0x1FE6,
    0x1FE7, 0x1FF2, 0x1FF3, 0x1FF4, 0x1FF6, 0x1FF7, 0x1FFC, 0xFB00, 0xFB01, 0xFB02, 0xFB03, 0xFB04, 0xFB05, 0xFB06,
    0xFB13, 0xFB14, 0xFB15, 0xFB16, 0xFB17,
  ]

  /// The first two bytes of every scalar of ``foldedToSeveral`` (U+00DF … U+FB17), in two groups
  /// of at most 8 for the vectorised pair search.
  private static let severalLeads: [NonASCIIPairs] = [
    NonASCIIPairs(
      [(0xC3, 0x9F), (0xC4, 0xB0), (0xC5, 0x89), (0xC7, 0xB0), (0xCE, 0x90), (0xCE, 0xB0), (0xD6, 0x87), (0xEF, 0xAC)]
        as [(UInt8, UInt8)]),
    NonASCIIPairs([(0xE1, 0xBA), (0xE1, 0xBD), (0xE1, 0xBE), (0xE1, 0xBF)] as [(UInt8, UInt8)]),
  ]

  /// The offset of the first scalar of ``foldedToSeveral`` in `range` (well-formed UTF-8), or nil.
  static func firstFoldedToSeveral(in bytes: ByteStorage, range: Range<Int>) -> Int? {
    var first: Int? = nil
    for leads in severalLeads {
      var position = range.lowerBound
      while let lead = bytes.firstIndex(ofAnyNonASCIIPair: leads, in: position..<(first ?? range.upperBound)) {
        var value = UInt32(bytes[lead] & 0x1F) << 6 | UInt32(bytes[lead + 1] & 0x3F)
        if bytes[lead] >= 0xE0 {
          guard lead + 2 < range.upperBound else { break }
          value =
            UInt32(bytes[lead] & 0x0F) << 12 | UInt32(bytes[lead + 1] & 0x3F) << 6 | UInt32(bytes[lead + 2] & 0x3F)
        }
        if foldedToSeveral.contains(value) {
          first = lead
          break
        }
        position = lead + 1
      }
    }
    return first
  }

  /// Scalar → the members of its class (itself first when it is the folded form).
  static let classOf: [UInt32: [UInt32]] = {
    var result: [UInt32: [UInt32]] = [:]
    var current: [UInt32] = []
    func close() {
      for s in current { result[s] = current }
      current = []
    }
    for scalar in table.unicodeScalars {
      if scalar == " " || scalar == "\n" { close() } else { current.append(scalar.value) }
    }
    close()
    return result
  }()

  /// The simple folding of `scalar` (itself when it has no case).
  static func fold(_ scalar: UInt32) -> UInt32 { classOf[scalar]?.first ?? scalar }

  /// Every scalar whose full folding is the single scalar `scalar` folds to, or nil when a match
  /// of `scalar` without case might not hold any of them (its folding is several scalars, or its
  /// folded form occurs inside another character's multi-scalar folding).
  static func variants(of scalar: UInt32) -> [UInt32]? {
    let f = fold(scalar)
    if foldedToSeveral.contains(scalar) || insideMultiScalarFoldings.contains(f)
      || insideMultiScalarFoldings.contains(scalar)
    {
      return nil
    }
    return classOf[scalar] ?? [scalar]
  }

  /// Byte strings of which every case-insensitive (full folding) match of the literal `text` holds
  /// one: the case variants of two or three adjacent characters (at most 8 combinations), the
  /// longest run with the most non-ASCII characters, or of one non-ASCII character; nil when no
  /// character is safe to use.
  static func needles(for text: String) -> [[UInt8]]? {
    needleWindow(for: text)?.needles
  }

  /// ``needles(for:)`` and the scalars of `text` they are the case variants of.
  static func needleWindow(for text: String) -> (window: Range<Int>, needles: [[UInt8]])? {
    let scalars = Array(text.unicodeScalars).map(\.value)
    let classes = scalars.map(variants(of:))
    var best: (score: Int, window: Range<Int>, needles: [[UInt8]])? = nil
    func utf8(_ v: UInt32) -> [UInt8] { Array(String(Unicode.Scalar(v)!).utf8) }
    for length in [3, 2, 1] where scalars.count >= length {
      for i in 0...(scalars.count - length) {
        let window = i..<(i + length)
        guard window.allSatisfy({ classes[$0] != nil }) else { continue }
        let combos = window.reduce(1) { $0 * classes[$1]!.count }
        let nonASCII = window.filter { scalars[$0] >= 0x80 }.count
        guard combos <= 8, nonASCII > 0 else { continue }
        let score = nonASCII * 1000 + length * 100 - combos
        if best.map({ score > $0.score }) ?? true {
          var needles: [[UInt8]] = [[]]
          for k in window { needles = needles.flatMap { n in classes[k]!.map { n + utf8($0) } } }
          best = (score, window, needles)
        }
      }
    }
    return best.map { ($0.window, $0.needles) }
  }
}
