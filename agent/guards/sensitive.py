"""Sensitive claims about a person: health, finances, religion, politics, sexuality, employer,
family, location.

The model may not invent these. A model-origin claim in one of these categories is kept only
when it is *grounded*: the user's own words in the conversation support it (the provenance
share of its terms) and every sensitive word of the claim's value appears in what the user said
(allowing for inflection: "depressed" grounds "depression"). The topic coming up is not enough:
a mortgage question does not ground a salary, a holiday question does not ground a religion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from . import prefilter
from .normalize import skeleton
from .provenance import user_texts
from .regex_cache import FROM_RUN_START, compile_cached

_I = re.IGNORECASE
# A Hebrew word starts a word, or follows only the letters Hebrew prefixes to one (ו ה ב ל כ מ
# ש: "בחוב", "והסרטן"); "חוב" (debt) inside "רחוב" (street) is not it.
_HE = r"(?<![א-ת])|(?<=(?<![א-ת])[והבלכמש])|(?<=(?<![א-ת])[והבלכמש]{2})"

CATEGORIES: dict[str, re.Pattern[str]] = {
    "health": compile_cached(
        # (not a feeling about something: "anxious about the layoff" is no condition)
        r"\b(diagnos\w*|depress\w*|anxiety|anxious(?! (?:about|over|for|to)\b)|bipolar|adhd|"
        r"autis\w*|cancer|tumou?r|diabet\w*|"
        # medicines that name what they treat, and contraception
        r"sertralin\w*|fluoxetin\w*|escitalopram|citalopram|paroxetin\w*|venlafaxin\w*|"
        r"gabapentin\w*|pregabalin\w*|(?-i:PrEP)|"
        r"bupropion|metformin\w*|insulin\w*|levothyrox\w*|antidepress\w*|"
        r"birth control|contracepti\w*|anticoncep\w*|verhütung\w*|antibabypille|"
        # sleep apnoea and its machine; a spinal injury and a wheelchair (also in CJK below)
        r"(?:sleep )?apn(?:o)?ea|cpap|bipap|schlafapnoe|apnée du sommeil|apnea del sueño|"
        r"spinal (?:cord )?injur\w*|wheelchair user|uses a wheelchair|"
        # bipolar in other languages, and the lithium that treats it
        r"bipolaire|bipolare|bipolär\w*|биполярн\w*|lithium|litio|lítio"
        r")\b|(?:脊髄損傷|脊髓损伤|脊髓損傷|脊椎損傷|車椅子|轮椅|輪椅|휠체어|척수 ?손상)|\b("
        r"darah tinggi|hipertensi|"
        r"hiv|aids|vih|sida|seropositi\w*|pregnan\w*|disorder|illness|disease|therapy|therapist|"
        # therapy in the other languages, as in English ("terapia hormonal", "Hormontherapie")
        r"terapia|terapie|th[ée]rapie|therapie|terapi|\w+therapie|hormonterapi\w*|"
        r"psychiatr\w*|medication|"
        r"prescri\w*|antidepres\w*|antidépress\w*|"
        r"surgery|asthma|allerg\w*|mental health|schizo\w*|ptsd|panic attacks?|panic disorder|"
        r"addict\w*|alcoholi\w*|infertil\w*|miscarriage|chronic|epilep\w*|dementia|alzheimer\w*|"
        r"health_condition|medical_condition|condition|sick|insomnia|migraine\w*|ocd|health|"
        # fertility and its treatment: "problemi di fertilità", "fecondazione assistita"
        r"fertilit\w*|fecondazione assistita|procreazione (?:medicalmente )?assistita|"
        r"f[ée]condation in vitro|fecundaci[oó]n in vitro|reproducci[oó]n asistida|"
        r"fertiliza[çc][ãa]o in vitro|reprodu[çc][ãa]o assistida|k[üu]nstliche befruchtung|"
        r"provr[öo]rsbefruktning|in[- ]vitro|t[üu]p bebek|hi[eế]m mu[oộ]n|"
        r"th[uụ] tinh [oố]ng nghi[eệ]m|"
        r"ivf|expecting (a |our |their |her |his )?(baby|child|twins|first|second)|"
        r"obes\w*|overweight|morbidly|ozempic|wegovy|mounjaro|semaglutid\w*|"
        r"crohn\w*|colitis|colite|insulina|insuline|"
        r"hepatit\w*|epatit\w*|hepatite|cirrhos\w*|herpes|syphilis|chlamydia|"
        r"cannabis|marijuana|marihuana|thc|stoner|cocaine|coca[ií]na|kokain|heroin\w*|"
        r"opioid\w*|mdma|ecstasy|drug (use|user|habit|problem)|recreational drugs|"
        r"kiff\w*|porro|maconha|maconheir[oa]|canapa|spinell\w*|"
        r"chemo\w*|radiotherap\w*|dialysis|oncolog\w*|insulin|transplant\w*|rehab\w*|"
        # what treats an opioid addiction, and a detox in Vietnamese
        r"methadon\w*|metadon\w*|méthadone|buprenorph\w*|suboxone|cai nghi[eệ]n|"
        r"heart (condition|disease|murmur|attack|failure|problems?)|murmur|cardiac|arrhythmi\w*|"
        r"stroke|hypertension|hypertensive|(high|low) blood pressure|blood pressure|"
        r"bluthochdruck|hipertensi[oó]n|hipertens[aã]o|ipertensione|hypertoni|"
        r"cholesterol|an(a)?emi\w*|thyroid|arthritis|injur(y|ies|ed)|"
        r"fractur\w*|disabilit\w*|disabled|wheelchair|hearing loss|blind|deaf|"
        r"depresión|enfermedad|embarazada|Krankheit|Diagnose|schwanger|dépression|maladie|enceinte|"
        r"depressão|doença|grávida|depressione|malattia|incinta|sjukdom|gravid|депресс\w*|болезн\w*|"
        r"έγκυ\w*|εγκυμοσύν\w*|καρκίν\w*|διαβήτ\w*|κατάθλιψ\w*|διπολικ\w*|διαταραχ\w*|"
        r"σχιζοφρέν\w*|άγχο\w*|λίθιο|"
        # the eyes: glaucoma, cataracts, losing one's sight
        r"glaucom\w*|glaukom\w*|cataract\w*|catarat\w*|katarakt\w*|macular degeneration|"
        r"degenerazione maculare|perdendo la vista|losing (?:his|her|their) sight|ipovedente|"
        # an injury and its treatment in Greek; a miscarriage, twins expected
        r"ρήξη|χιαστ\w*|φυσικοθεραπ\w*|κάταγμα|τραυματισμ\w*|"
        r"aborto|abortion|fausse couche|fehlgeburt|выкидыш\w*|"
        r"aspett\w* (?:un |una |due |il |la |dei )?(?:bambin[oai]|gemell[ie]|figli[oa]?)|"
        # IVF and infertility in Russian and Ukrainian ("ЭКО" in capitals: "эко-" is eco)
        r"(?-i:ЭКО)|бесплоди\w*|безплідд\w*|"
        r"ansiedad|ansiedade|anxiété|ansia|ångest|тревож\w*|Angststörung|trastorno|Störung|"
        r"диагноз\w*|беремен\w*|диабет\w*|sjukskriv\w*|utbrand\w*|utmattning\w*|burn-?out|"
        r"ziekte|kanker|krebs|diabete|kanser|depresyon|hastalig\w*|diyabet\w*|hastas[ıi]\w*|"
        r"infertil\w*|unfruchtbar\w*|"
        # Polish, Turkish, Indonesian, Dutch, Vietnamese: pregnancy, anxiety, depression, illness
        r"w ci[aą][zż]y|ci[eę][zż]arn\w*|depresj\w*|nerwic\w*|zaburzeni\w* l[eę]kow\w*|migren\w*|"
        r"hamile|gebe|anksiyete|kayg[ıi] bozuklu\w*|hamil|migrain\w*|kecemasan|depresi|"
        r"gangguan (kecemasan|jiwa|mental)|penyakit|zwanger\w*|depressie|angststoornis|"
        r"mang thai|c[oó] b[aầ]u|tr[aầ]m c[aả]m|r[oố]i lo[aạ]n lo [aâ]u|"
        # Vietnamese: diabetes, cancer, high blood pressure, asthma, a stroke
        r"ti[eể]u đ[uư][oờ]ng|đái tháo đường|ung th[uư]|cao huy[eế]t [aá]p|huy[eế]t [aá]p cao|"
        r"hen suy[eễ]n|đ[oộ]t qu[yỵ]|"
        r"sterilite|esterilidad|alcohol\w*|alkohol\w*|adiccion\w*|dependencia|"
        # the noun, capitalised: "sucht" is also the verb ("sucht eine Wohnung", looks for)
        r"(?-i:Sucht)\w*|"
        r"suchtig|dependance|dipendenza|vicio|verslav\w*|uzaleznien\w*|bagimlil\w*)\b|"
        # whole words: "девичья" (maiden) holds "вич", "спидометр" holds "спид"
        r"ожирен\w*|гепатит\w*|(?<![^\W\d_])(?:ВИЧ|СПИД)(?![^\W\d_])|наркот\w*|наркоман\w*|марихуан\w*|каннабис\w*|"
        r"肥胖|肥満|비만|肝炎|乙肝|丙肝|携带者|攜帶者|艾滋|愛滋|大麻|吸毒|毒品|麻薬|마약|대마|"
        r"(?:" + _HE + r")(?:בשמנת|השמנה|קנאביס|סמים)|"
        r"السمنة|الحشيش|مخدرات|मोटापा|गांजा|"
        r"бесплод\w*|гипертони\w*|безплідн\w*|고혈압|高血圧|不孕|不育|"
        r"алкогол\w*|зависимост\w*|залежніст\w*|アルコール依存|依存症|알코올|중독|酗酒|"
        r"당뇨|우울증|불임|बीमारी|कैंसर|मधुमेह|बांझ|संतान नहीं|अवसाद|"
        # IVF, bipolar disorder, blood pressure: "试管婴儿", "躁郁症", "उच्च रक्तचाप"
        r"试管婴儿|試管嬰兒|体外受精|시험관 ?시술|双相情感|躁郁|躁鬱|रक्तचाप|"
        # Crohn's and colitis, insulin, diabetes as Hindi writes the English word, "ill with"
        r"डायबिटीज़?|डायबिटिज़?|इंसुलिन|इन्सुलिन|क्रोहन|"
        r"(?:" + _HE + r")(?:קרוהן|קוליטיס|אינסולין|חולה ב|חולת|חולה כרוני)|"
        r"كرون|القولون التقرحي|أنسولين|انسولين|إنسولين|"
        r"克罗恩|克隆氏|溃疡性结肠炎|潰瘍性大腸炎|胰岛素|胰島素|インスリン|クローン病|인슐린|크론병|"
        r"болезн\w* крона|инсулин\w*|"
        r"سرطان|سكري|اكتئاب|مرض|مصاب\w*|ضغط الدم|حامل|गर्भवती|गर्भावस्था|गर्भ|प्रेग्नेंट|"
        # Persian: diabetes, depression, anxiety, pregnancy, illness, medication
        r"دیابت|افسردگی|اضطراب|بارداری|باردار|حامله|بیماری|داروی|دوقطبی|"
        # cancer in Ukrainian and Russian (not "рак", a crayfish, alone); Swahili illnesses
        r"рак\w{0,2}\s+(?:молочн|легень|легких|легенів|шкір|кож|кров|простат|шийк)\w*|"
        r"онкологі\w*|онкологи\w*|kifua kikuu|ukimwi|kisukari|saratani|"
        # Greek and Hebrew: antidepressants, depression, a prescription, illness
        r"αντικαταθλιπτ\w*|κατάθλιψ\w*|καταθλιψ\w*|διαβήτ\w*|συνταγ[ήη] (κάθε|για)|"
        r"ασθένει\w*|αγχώδ\w*|νοσ[ηή]\w*|נוגדי דיכאון|תרופות (נגד|פסיכיאטריות)|"
        r"антидепресант\w*|антидепрессант\w*|अवसादरोधी|"
        r"(?:" + _HE + r")(?:סרטן|סוכרת|דיכאון)|"
        r"高血压|高血壓|心脏病|心臟病|哮喘|过敏|過敏|患有|健康状况|健康狀況|"
        r"不安障害|障害|服用|障碍|障礙|双相|雙相|精神病|心理疾病|酗酒|成瘾|成癮|抑郁|憂鬱|焦虑|焦慮|癌|糖尿病|怀孕|懷孕|疾病|诊断|診斷|病情|うつ病|病気|"
        r"診断|妊娠|不妊|우울|질병|진단|임신|"
        # Czech and Slovak: diabetes, cancer, pregnancy, an illness ("nemocnice" is a hospital),
        # anxiety, a diagnosis, depression, asthma, addiction, high blood pressure
        r"\b(?:cukrovk\w*|rakovin\w*|t[ěe]hotn\w*|tehotn\w*|nemoc(?:i|í|ím|emi|ech|e)?|"
        r"chorob\w*|[úu]zkost\w*|diagn[óo]z\w*|depres(?:e|í|i)|bipol[áa]rn\w*|astm\w*|"
        r"z[áa]vislost\w*|vysok[ýy]\w* tlak\w*|hypertenz\w*|neplodn\w*|potrat\w*)\b|"
        # Thai: diabetes, depression, cancer, pregnancy, HIV and AIDS, bipolar, high blood
        # pressure, anxiety, heart disease, asthma, ADHD, drinking, drugs, dialysis, miscarriage
        r"เบาหวาน|ซึมเศร้า|มะเร็ง|ตั้งครรภ์|ตั้งท้อง|เอชไอวี|เอดส์|ไบโพลาร์|ความดันสูง|ความดันโลหิตสูง|"
        r"วิตกกังวล|โรคหัวใจ|หอบหืด|ออทิสติก|สมาธิสั้น|ติดเหล้า|ติดยา|ยาเสพติด|จิตเวช|ยาต้านไวรัส|"
        r"ยาคุม|避孕药|避孕藥|低用量ピル|피임약|"
        r"ยาต้านเศร้า|ป่วยเป็น|ลมชัก|ไตวาย|ฟอกไต|แท้งลูก|มีบุตรยาก",
        _I,
    ),
    "finances": compile_cached(
        r"\b(salary|salaries|income|earns?|earning|wages?|net worth|debts?|loans?|mortgage|"
        # bankruptcy and debt in Hungarian: "csődeljárás", "tartozása van a NAV felé"
        r"csőd\w*|felszámolás\w*|tartozás\w*|adósság\w*|"
        # ... a defaulted loan in Bengali
        r"ঋণ|লোন|খেলাপি|"
        # an inheritance: "recebeu herança", "an inheritance from her father", "наследство"
        r"inherit\w*|heran[çc]a|herencia|h[ée]ritage|eredit[àa]|erbschaft|erbe|arv|"
        r"interdit bancaire|fiché\w* (?:à|a) la banque de france|fichage bancaire|"
        # a credit record: "negativer Schufa-Eintrag", "en ASNEF", "кредитная история"
        r"schufa\w*|asnef|kreditw[üu]rdigkeit|bonit[äa]t|кредитн\w* истори\w*|"
        # what the user is paid, asked for: "negotiating a pay rise", "Gehaltserhöhung",
        # "aumento de sueldo", "löneförhöjning", "повышение зарплаты", "kenaikan gaji"
        r"pay (?:rise|raise|increase|cut)|ask\w* for an? (?:raise|pay rise)|"
        r"negotiat\w* (?:a |an |his |her |their )?(?:raise|salary|pay)|salary negotiation\w*|"
        r"(?:gehalts|lohn)(?:erhöhung|verhandlung)\w*|aumento (?:de sueldo|de salario|salarial|"
        r"de sal[aá]rio|di stipendio|di salario)|augmentation de salaire|"
        r"n[ée]gocie\w* (?:son|leur|un) salaire|l[öo]neförh[öo]jning\w*|l[öo]nesamtal\w*|"
        r"l[öo]neförhandling\w*|(?:loon|salaris)(?:s)?verhoging\w*|podwyżk\w* (?:pensji|"
        r"wynagrodzenia|p[łl]acy)|zvýšení platu|повышени\w* зарплат\w*|прибавк\w* к зарплате|"
        r"maa[şs] zamm\w*|kenaikan gaji|t[aă]ng l[uư][oơ]ng"
        r")\b|加薪|涨薪|漲薪|昇給|賃上げ|연봉 ?(?:협상|인상)|임금 ?인상|वेतन वृद्धि|زيادة الراتب|"
        r"(?:征信|信用记录|信用記錄|网贷|網貸|信用情報)|\b("
        r"score de cr[ée]dit|puntaje crediticio|historial crediticio|"
        r"наследств\w*|спадщин\w*|"
        r"on (welfare|benefits)|food stamps|"
        r"bankrupt\w*|credit score|(bad|poor) credit|savings|financially|broke|poverty|"
        r"financial (difficult\w*|trouble|hardship|problems?|struggles?|distress|situation)|"
        r"behind (on|with) (\w+ )?(payments|rent|bills|mortgage|loans?)|can'?t afford|"
        r"dificultades (econ[oó]micas|financieras)|difficult[ée]s financi[eè]res|"
        # Indonesian: hard put to pay, can't afford
        r"kesulitan (membayar|keuangan|ekonomi)|tidak mampu (membayar|bayar)|"
        r"finanzielle (schwierigkeiten|probleme|not)|difficolt[aà] economiche|"
        r"dificuldades financeiras|финансов\w* (трудност\w*|проблем\w*)|"
        r"inherit\w*|arrears|overdue|defaulted|paid \d|(?<![\d"
        r".,])\d+(\.\d+)?\s?k|"
        r"per (year|month|"
        r"annum)|a year|annual(ly)?|salario|sueldo|ingresos|deudas?|Gehalt|Einkommen|Schulden|"
        r"salaire|revenus?|dettes?|salário|renda|dívidas?|stipendio|reddito|debiti|lön|inkomst|"
        r"skulder|зарплат\w*|доход\w*|долг\w*|verdient|verdienen|gana|gagne|ganha|guadagna|tjänar|"
        r"зарабатывает|schuld\w*|borc\w*|dluh\w*|zadluzen\w*|velka\w*|adosad[oa]|"
        r"endividad[oa]|endette\w*|indebitat[oa]|verschuldet|überschuldet|uberschuldet|"
        r"insolven\w*|privatinsolvenz|pfändung\w*|inkasso|sobreendeudad[oa]|surendett\w*|"
        r"sovraindebitat[oa]|faillissement|schuldsanering|upadłoś\w*|upadlos\w*|"
        r"zadłużon\w*|zadluzon\w*|iflas\w*|icra takib\w*)\b|"
        r"कर्ज|क़र्ज़|ديون|รายได้|เงินเดือน|หนี้|ค้างภาษี|ภาษีย้อนหลัง|ล้านบาท|"
        r"卡債|卡债|債務|债务|負債|负债|欠債|欠债|"
        r"(?:" + _HE + r")חוב|"
        r"(?<![\d.,])\d[\d.,]*\s?[$€£¥₹₩₽₺₫]|[$€£¥₹₩₽₺₫]\s?\d[\d.,]*k?|(?<![\d.,])\d[\d.,]*\s?(dollars|euros|"
        r"pounds|usd|eur|gbp|sek|kr)\b|"
        r"\b(gaji\w*|bergaji|penghasilan\w*|pendapatan\w*|utang|hutang|per bulan|juta|maa[sş]\w*|"
        r"gelir\w*|"
        r"bor[cç]\w*|l[uư][oơ]ng|thu nh[aậ]p|wynagrodzeni\w*|pensj\w*|zarobk\w*|doch[oó]d\w*|"
        r"salaris|inkomen|schulden|"
        # Vietnamese: a debt, a loan, bankruptcy, millions of dong
        r"nợ|khoản vay|vay nợ|phá sản|triệu đồng|tỷ đồng|\d+ triệu|emi)\b|"
        # Hindi: a loan, a debt, whole words ("लोनावला" is a town)
        r"(?<![\u0900-\u097f])(?:लोन|ऋण|कर्ज|क़र्ज़|ईएमआई)(?![\u0900-\u097f])|"
        r"वेतन|तनख्वाह|कमाई|راتب|دخل|薪水|薪资|工资|工資|收入|"
        r"月薪|年薪|房贷|房貸|低保|存款|负债|負債|贷款|貸款|給料|年収|借金|生活保護|"
        r"월급|연봉|빚|연체|대출|"
        # Czech and Slovak: a wage, pay, income, a distraint, insolvency, a mortgage, a loan
        r"\b(?:mzd[aouyě]\w*|mzdu|v[ýy]plat[aouyě]\w*|p[řr][íi]j[e]?m\w*|exekuc\w*|"
        r"insolvenc\w*|hypot[ée]k\w*|hypote[čc]n\w*|[úu]v[ěe]r\w*|p[ůu]j[čc]k\w*|"
        r"plat(?:u|em|y)?\s+\d)|"
        # Thai: a loan, borrowing, bankruptcy, savings, a raise
        r"เงินกู้|กู้เงิน|สินเชื่อ|ล้มละลาย|เงินออม|ขึ้นเงินเดือน",
        _I,
    ),
    "religion": compile_cached(
        # Hindi names the faiths without a word boundary after their vowel signs
        r"(?:जैन|हिंदू|हिन्दू|मुस्लिम|सिख|ईसाई|बौद्ध)(?![\u0900-\u097f])|"
        r"\b(muslim|islam\w*|christian\w*|catholic\w*|protestant|evangelical|jewish|judaism|jew|"
        r"hindu\w*|buddhis\w*|sikh\w*|atheis\w*|agnostic|mormon|religio\w*|church|mosque|synagogue|"
        r"faith|devout|ramadan|kosher|halal|sunni|shia|religión|musulm\w*|católic\w*|religione|"
        r"religião|религи\w*|мусульман\w*|правосла\w*|katholi\w*|evangeli\w*|muslimi\w*|"
        r"jüdisch\w*|judí[oa]s?|judeu|judia|juif|juive|ebre[oa]|cattolic\w*|christlich\w*|"
        r"chrétien\w*|cristian[oa]s?|cristã[oa]?|misa|gottesdienst\w*|jehov\w*|scientolog\w*|"
        r"adventist\w*|quaker\w*|pentecostal\w*|baptist\w*|"
        r"иегов\w*|єгов\w*|христиан\w*|католи\w*|протестант\w*|иуде\w*|буддист\w*|"
        r"атеист\w*|церк\w*|мечет\w*|синагог\w*|сект\w*|верующ\w*|релігі\w*|"
        r"християн\w*|віруюч\w*)\b|耶和华|耶和華|エホバ|여호와|宗教|穆斯林|基督|天主教|佛教|信仰|伊斯兰|伊斯蘭|"
        r"イスラム|ムスリム|キリスト教|仏教|종교|무슬림|기독교|불교|"
        # whole Hindi words: "सिखा रहा है" (is teaching) is no Sikh
        r"(?:मुसलमान|मुस्लिम|हिंदू|हिन्दू|ईसाई|सिख|बौद्ध|धर्म)(?:ों)?(?![\u0900-\u097f])|"
        r"مسلم|مسيحي|يهودي|ملحد|"
        # Turkish, Greek, Hebrew, Hindi: a believer, a fast kept, prayers
        r"\b(m[uü]sl[uü]man\w*|dindar\w*|oru[cç] tut\w*|namaz k[ıi]l\w*|hristiyan\w*|"
        r"yahudi\w*|ateist\w*|ορθόδοξ\w*|θρήσκ\w*|μουσουλμ\w*|νηστεύ\w*|εβραί\w*)\b|"
        r"(?:" + _HE + r")(?:דתי|דתייה|מוסלמי|נוצרי|יהודי|יהודייה|רפורמי|רפורמית|חרדי|חרדית)|"
        r"שומר(ת)? שבת|שומר(ת)? כשרות|"
        r"व्रत रख|रोज़ा रख|रोजा रख|"
        # Czech and Slovak: a believer, Catholic, Christian, Protestant, Orthodox, the church
        r"\b(?:v[ěe][řr][íi]c[íi]|katol[íi]\w*|k[řr]es[ťt]an\w*|kres[tť]an\w*|evangel[íi]\w*|"
        r"pravoslavn\w*|c[íi]rkev\w*|c[íi]rkv\w*|[žz]id(?:ovsk\w*|ovka|ovk\w*)|"
        r"ateist\w*)\b|"
        # Thai: of a faith, Muslim, Christian, Buddhist, prayers, a fast
        r"นับถือศาสนา|มุสลิม|คริสเตียน|ศาสนาคริสต์|ศาสนาอิสลาม|ศาสนาพุทธ|ชาวพุทธ|"
        r"ไม่นับถือศาสนา|เข้าโบสถ์|ละหมาด|ถือศีลอด",
        _I,
    ),
    "politics": compile_cached(
        r"\b(democrats?|republicans?|liberal|conservative|socialist|communist|labou?r party|tory|"
        r"tories|green party|greens|votes? (for|green|labou?r|tory|democrat|republican)|voted|"
        r"politi\w*|party member|left-wing|partido|filiad[oa]|popiera\w* parti\w*|"
        r"right-wing|far-right|far-left|político|Partei|wählt|politique|partito|политич\w*|"
        r"партии|партия|vota (a|al|por|pelo|per)|waehlt|vote pour|rostar pa|stemt op|glosuje na|"
        r"голосует за|leftist|left-leaning|right-leaning|izquierdista|derechista|gauchiste|"
        r"linksgerichtet|rechtsgerichtet|linksextrem\w*|rechtsextrem\w*|links-grün|"
        # "es de izquierdas", "est de droite", "è di sinistra": a copula and a side
        r"de (izquierdas|derechas)|(es|soy|son|ser|sea|est|suis|sont|être|é|sou|são|è|sono|"
        r"essere) (muy |bastante |plutôt |très |molto |bem )?(de|di) (izquierda|derecha|gauche|"
        r"droite|sinistra|destra|esquerda|direita))\b|левых взглядов|правых взглядов|"
        r"左翼|右翼|左派|右派|"
        # "supports the AfD", "backs the SNP": a party named by its initials
        r"\b(?:vota|votó|votou|votava|vote|wählt|röstar på|stemt op|głosuje na)\s+"
        r"(?-i:[A-Z])[^\W\d_]+(?:\s+(?-i:[A-Z])[^\W\d_]+)?|"
        r"\b(supports?|backs?|sympathi[sz]es with|(is )?a member of|votes? for)\s+(the\s+)?"
        r"(?-i:[A-Z][A-Za-z]{0,4}[A-Z])\b|"
        r"\b(mitglied|membre|miembro|membro|iscritt[oa]|lid|cz[łl]onk\w*|[üu]ye\w*)\s+"
        r"(der|des|du|de la|de l'|del|de|do|da|della|dell'|al|van de|van|partii)?\s*"
        r"(?-i:[A-Z][A-Za-z]{0,4}[A-Z])\b|член\w* (партии )?(?-i:[А-ЯA-Z]{2,})|"
        r"政治|党员|黨員|投票给|投票給|政党|支持政党|정당|정치|"
        # a vote for a party by its initials, activism in one: "vote LFI", "milite au parti"
        r"\b(vote|votent|votait|wählt|stemt|vota|votou|röstar)\s+(?-i:[A-Z][A-Za-z]{0,4}[A-Z])\b|"
        r"\b(milite|milita|militant\w*|militan\w*)\s+(au|dans|pour|en|nel|no|na|para|por)\b|"
        # an activist or a member of a party by its initials, with its article: "militante do
        # PT", "militante del PSOE", "filiado ao PSDB", "členem KSČM", "anggota PDIP"
        r"\b(?:militant\w*|militan\w*|activist\w*|aktivist\w*|attivist[ai]|ativista|"
        r"activista|filiad[oa]|afiliad[oa]|[čc]len\w*|anggota|kader|đảng viên)\s+"
        r"(?:(?:do|da|dos|das|de|del|della|dell'|di|du|des|der|al|ao|à|au|of the|of|van|"
        r"strany|partii|partai|partido|parti|partito|partij|đảng)\s+)?"
        r"(?-i:[A-Z][A-Za-zÀ-ÖØ-ÞČŠŽŘĚŇŤĎŮŁŚŻŹĆŃ]{0,4}[A-ZÀ-ÖØ-ÞČŠŽŘĚŇŤĎŮŁŚŻŹĆŃ])(?![\w-])|"
        r"против войны|антивоенн\w*|оппозиционер\w*|"
        # Hindi, Greek, Hebrew, Turkish, Swedish, Polish: votes for, supports a party
        r"भाजपा|बीजेपी|कांग्रेस|आम आदमी पार्टी|पार्टी का समर्थक|का समर्थक|को वोट|"
        r"ψηφίζ\w*|κόμμα\w*|מצביע(ה)? ל|תומך(ת)? ב(מפלגת|ליכוד|עבודה)|מפלגת|"
        r"\b(oy (veriyor|verecek|verir|veren)|partili|partisi(ni|ne) (destekliyor|oy)|"
        r"r[oö]star p[aå]|partiet\b|partimedlem|glosuje|g[lł]osowa[lł]\w*|"
        r"rösta(de|r) på)|"
        # a party by its initials, a member or a voter of it: "AfD-Mitglied", "wählt bei der
        # Landtagswahl AfD"
        r"(?-i:[A-Z][A-Za-z]{0,4}[A-Z])-(?:mitglied|wähler\w*|anhänger\w*|member|supporter|voter|"
        r"militant\w*|membre|miembro|iscritt[oa])\b|"
        r"\b(?:wählt|waehlt|votes|vota|vote|stemt|röstar)\b[^.!?\n;]{0,30}\b"
        r"(?-i:[A-Z][A-Za-z]{0,4}[A-Z])\b|"
        # a party by its name: "Mitglied der Grünen", "wählt grün", "vote pour les Verts"
        r"\b(?:mitglied|membre|miembro|membro|member|iscritt[oa])\s+(?:der|bei den|des|du|de la|"
        r"del|do|da|della|of the)\s+(?:grünen|gruenen|linken|verts|verdes|verdi|greens)\b|"
        r"\b(?:wählt|waehlt|vote|votes|vota|stemt)\s+(?:bei\s+[^.!?\n;]{0,25}\s+)?(?:die\s+|les\s+|los\s+)?"
        r"(?:grün|grüne|grünen|linke|verts|verdes|verdi)\b|"
        # Czech and Slovak: votes for a party by its initials, a party member, a voter
        r"\b(?:volí|volil[ai]?)\s+(?-i:[A-ZČŘŠŽ][A-Za-zČŘŠŽĚŮ]{0,4}[A-ZČŘŠŽĚŮ])(?![\w-])|"
        r"\b(?:[čc]len\w* (?:strany|hnut[íi])|voli[čc]\w*|politick\w* (?:n[áa]zor\w*|"
        r"p[řr]esv[ěe]d[čc]en\w*))\b|"
        # Thai: a party member, a vote or support for a party
        r"สมาชิกพรรค|เลือกพรรค|โหวตให้พรรค|โหวตพรรค|สนับสนุนพรรค|เชียร์พรรค|เสื้อแดง|เสื้อเหลือง",
        _I,
    ),
    "sexuality": compile_cached(
        r"\b(gay|lesbian\w*|lesbica|lésbica|bisexual|queer|homosexual|heterosexual|transgender|"
        r"non-binary|no binari[oa]|não binári[oa]|trans(?:gênero|género|genere)|"
        # "är transperson", "ist eine Transfrau", "transsexuell", "icke-binär"
        r"trans ?(?:person|personer|kvinna|man|frau|mann|femme|homme|vrouw|mujer|hombre|"
        r"woman)|transsexu\w*|transexual\w*|transidentit\w*|icke-binär|nicht-binär|"
        r"non-binaire|niet-binair|niebinarn\w*|"
        r"sexual orientation|sexuality|asexual|lgbt\w*|schwul|lesbisch|lesbienne|гей|лесби\w*|"
        r"omosessuale|homosexuel\w*|homossexual|homosexuell|гомосексуал\w*|bisessuale|bissexual|"
        r"bisexu\w*|bissexu\w*|bisessual\w*|sexual_orientation|orientation sexuelle|"
        r"orientación sexual|sexuelle orientierung)\b|"
        r"同性恋|同性戀|双性恋|雙性戀|跨性别|跨性別|ゲイ|レズビアン|동성애|"
        # Czech and Slovak; Thai: gay, lesbian, bisexual, transgender
        r"\b(?:homosexu[áa]l\w*|lesbi[čc]k\w*|lesba|bisexu[áa]l\w*|transgender\w*)\b|"
        # Turkish: "trans bir birey", "trans kadın", "eşcinsel"
        r"\btrans (?:bir )?(?:birey\w*|kad[ıi]n\w*|erkek\w*)|\be[şs]cinsel\w*|"
        r"เกย์|เลสเบี้ยน|ไบเซ็กชวล|คนข้ามเพศ|สาวประเภทสอง|กะเทย|รักร่วมเพศ|"
        r"chuy[ểe]n gi[ớo]i|đồng tính|song tính|"
        # Hebrew and Arabic: transgender, gay, lesbian; a gender marker changed
        r"טרנסג['׳]?נדר\w*|טרנס(?:ית)?(?!\S)|הומו(?:סקסואל\w*)?(?!\S)|לסבית|"
        r"متحول\w* جنسي\w*|مثلي\w*|"
        r"(?:sex|gender|geschlecht\w*|genre|sexo|género|g[eê]nero|k[öo]n)\s*(?:marker|eintrag|"
        r"marqueur)?\s*(?:change|[äa]nderung|changement|cambio|mudan[çc]a|byte)|"
        r"שינוי (?:סימון )?המין",
        _I,
    ),
    "employer": compile_cached(
        r"\b(works? (at|for)|working (at|for)|employed (at|by)|employer|job at|works_at|"
        r"works_for|employer_name|unemployed|jobless|laid off|out of work|arbeitslos|desempleado|"
        r"arbeitgeber\w*|empleador|employeur|empregador|datore di lavoro|"
        r"arbetsgivar\w*|работодател\w*|trabaja (en|para)|arbeitet (bei|für)|travaille (chez|pour)|"
        r"trabalha (na|no|em|para)|lavora (per|presso|da)|arbetar (på|för)|работает в)\b|"
        r"在[^。，]{1,12}工作|就职于|就職於|勤めて|勤務|에서 일|"
        # Korean: "삼성전자에 재직 중", "네이버에서 근무"
        r"에 (재직|근무|다니)|에서 (근무|재직)|"
        # Hebrew, Turkish, Hindi, Greek, Swedish, Polish: works at
        r"עובד(ת)? (ב|אצל)|(?<!\S)\S+'?(de|da|te|ta) [cç]al[ıi][sş][ıi]yor|में काम कर|"
        # ... with the role between: "עובד כיום כעורך משנה ב'הארץ'"; laid off
        r"עובד(ת)?\s+(?:\S+\s+){1,3}?(?:ב['\"״׳]|אצל\s)|פיטורים|פוטר(ה)?|"
        r"δουλεύει (σ|στη|στο|για)|εργάζεται (σ|στη|στο|για)|"
        r"\b(jobbar|arbetar) (p[aå]|hos|f[oö]r)\b|"
        r"\bpracuje (w|u|dla)\b|"
        # ... with the role between: "works as an assistant coach at Team Vitality", "trabaja
        # como enfermera en el Clínic", "arbeitet als Ingenieur bei Siemens", "работает
        # водителем в Яндексе"; Dutch, Czech, Ukrainian, Indonesian, Vietnamese: works at
        r"\b(?:(?:works?|working|employed) as|trabaja (?:de|como)|arbeitet als|"
        r"travaille (?:comme|en tant que)|trabalha (?:como|de)|lavora (?:come|da)|"
        r"(?:arbetar|jobbar) som|werkt als|pracuje jako|работает|працює (?:як)?|"
        r"bekerja sebagai)\s+(?:[^\W\d_][\w'’-]*\s+){1,4}?"
        r"(?:at|for|en|para|bei|für|chez|pour|na|no|em|per|presso|alla|al|på|för|hos|bij|voor|"
        r"w|we|u|dla|v|ve|pro|в|во|у|di|pada|untuk)\b|"
        r"\b(?:werkt (?:bij|voor)|pracuje (?:v|ve|pro)|працює (?:в|у)|"
        # employed at, in Czech, Slovak and Polish: "je zaměstnán ve Škoda Auto"
        r"zam[ěe]stn[aá]n\w* (?:ve?|u)|zatrudnion\w* (?:w|we|u)|"
        r"bekerja (?:di|pada|untuk)|l[aà]m vi[eệ]c (?:t[aạ]i|[oở]|cho))\b|"
        r"(?<!\S)\S+'?(?:de|da|te|ta) (?:\S+ ){1,3}?olarak [cç]al[ıi][sş][ıi]yor|में नौकरी|"
        # Thai: works at, is an employee of
        r"ทำงาน(?:อยู่)?ที่|ทำงานให้|เป็นพนักงาน(?:ของ|ที่|บริษัท|ธนาคาร)",
        _I,
    ),
    "family": compile_cached(
        r"\b(married|divorc\w*|separated|widow\w*|spouse|custody|marital\w*|single mother|"
        r"διαζ[υύ]γ\w*|"
        # Arabic: divorced, a divorce, custody
        r"مطل[\u0651]?ق\w*|الطلاق|طلاق|حضانة|"
        r"single father|has (\d+|one|two|three|four) (kids|children|sons|daughters)|"
        # Finnish: divorced, a sole custodian, widowed
        r"eronnut|eronneet|avioero\w*|yksinhuolta\w*|leski|"
        r"has an? (\d+[- ]years?[- ]old |newborn |baby |teenage |young )?(son|daughter|child|kid|"
        r"baby)|"
        r"casad[oa]|divorciad[oa]|verheiratet|geschieden|marié|divorcé|sposat[oa]|gift|skild|"
        # Swedish, Danish, Norwegian: divorcing, a custody dispute
        r"skiljas|skilsmässa\w*|skilsmisse\w*|vårdnadstvist\w*|vårdnad\w*|forældremyndighed|"
        r"женат|замужем|развед\w*|affairs?|infidel\w*|unfaithful|extramarital|"
        r"cheat(s|ing|ed) on|divorzi\w*|scheiding|gescheiden|rozwod\w*|bosan\w*|"
        # engaged to be married: "engaged to a woman from Cebu", "fiancée", "verlobt"
        r"engaged to|fianc[ée]e?s?|betrothed|prometid[oa]|comprometid[oa]|verlobt\w*|"
        r"fidanzat[oa]|noiv[oa]|помолвлен\w*|"
        r"cerai|bereave\w*|grie(f|ving)|mourning|passed away|died|death of|"
        r"χήρ(ος|α|οι)|μονογονε\w*|μόνος γονιός|μόνη μητέρα|διαζευγμέν\w*|διαζύγι\w*|"
        r"lost (his|her|their|my|a) (mother|father|mum|mom|dad|wife|husband|partner|child|son|"
        r"daughter|baby|brother|sister|parent)|estranged|orphan\w*)\b|развод\w*|розлуч\w*|"
        r"तलाक|طلاق|"
        r"(?:" + _HE + r")גירושין|"
        # Hebrew: divorced, divorcing, custody, widowed, married
        r"(?:" + _HE + r")(?:גרוש(?:ה|ים|ות)?|מתגרש\w*|משמורת|אלמן|אלמנה|נשוי|נשואה)(?![א-ת])|"
        r"(结婚|結婚)(?!式|典礼|典禮)|离婚|離婚|丧偶|喪偶|订婚|訂婚|婚約|약혼|"
        # a wedding (결혼식, 結婚式) is an event anyone goes to, not the user's marital status
        r"去世|过世|過世|결혼(?!식)|이혼|"
        # Czech and Slovak: divorced, married, widowed, a single mother; Thai alike
        r"\b(?:rozveden\w*|rozvod\w*|[žz]enat[ýy]|vdan[áa]|vdova|vdovec|samo[žz]ivitel\w*)\b|"
        r"หย่า|แต่งงานแล้ว|สมรสแล้ว|เป็นม่าย|แม่เลี้ยงเดี่ยว|พ่อเลี้ยงเดี่ยว|นอกใจ|มีชู้",
        _I,
    ),
    "employment": compile_cached(
        r"\b(unemployed|jobless|laid off|out of work|fired|dismissed|sacked|made redundant|"
        r"lost (their|his|her|my|a|the) job|job loss|"
        r"demitid[oa]|despedid[oa]|desemplead[oa]|desempregad[oa]|arbeitslos\w*|entlassen|"
        r"gekundigt|licencie\w*|chomage|chomeur\w*|licenziat[oa]|disoccupat[oa]|uppsagd|"
        r"arbetslos|avskedad|ontslagen|werkloos|zwolnion\w*|bezrobotn\w*|issiz|kovuldu|"
        r"isten cikaril\w*|werkeloos|irtisanot+u\w*|irtisanot+iin|lomautet\w*|tyoton)\b|"
        r"уволен\w*|уволил\w*|безработн\w*|без работы|без роботи|"
        r"звільнен\w*|безробітн\w*|解雇|失业|失業|被裁|裁员|裁員|下岗|下崗|クビ|失職|실직|해고|"
        r"\b(?:nezam[ěe]stnan\w*|nezamestnan\w*|(?:propu[šs]t[ěe]n|vyhozen)\w* z "
        r"(?:pr[áa]ce|zam[ěe]stn[áa]n[íi])|dostala? v[ýy]pov[ěe][ďd])\b|"
        r"ตกงาน|ว่างงาน|ถูกเลิกจ้าง|โดนเลิกจ้าง|ถูกไล่ออก|โดนไล่ออก|โดนเลย์ออฟ",
        _I,
    ),
    "ethnicity": compile_cached(
        r"\b(ethnic\w*|race_ethnicity|racial|hispanic|latin[oa]s?|latinx|caucasian|"
        r"african[- ]american|indigenous|aboriginal|etnia|étnic[oa]|ethnie|ethnique|"
        r"ethnisch\w*|этническ\w*|национальност\w*|"
        # caste, and India's reserved categories named as one's own
        r"caste|kaste|(?-i:OBC|SC/ST)|scheduled (?:caste|tribe)|dalit\w*)\b|"
        r"种族|種族|民族|民族性|जाति|जातीय|दलित|अनुसूचित (?:जाति|जनजाति)|ओबीसी",
        _I,
    ),
    # immigration and legal status: what a guess exposes a person to most
    "legal_status": compile_cached(
        r"\b(immigration|immigrant|undocumented|illegal(ly)? (immigrant|alien|resident)|"
        # suspected of a fraud, refused by insurers: "rejected for suspected fraud"
        r"(?:suspected|alleged|accused of|investigated for|convicted of) (?:insurance )?fraud|"
        r"refused (?:cover|insurance) by|"
        r"asylum|refugee|deport\w*|visa status|residence permit|green card|overstay\w*|"
        r"k-1 (visa|petition)|fianc[ée]e? visa|"
        # a deferral or a temporary protection: "beneficiario de DACA", "за тимчасовим захистом",
        # "ochrona czasowa", "vorübergehender Schutz"
        r"daca|(?-i:TPS)|dreamer|temporary protect\w*|protecci[oó]n temporal|protection temporaire|"
        r"prote[cç][aã]o tempor[aá]ria|protezione temporanea|vorübergehende\w* schutz\w*|"
        r"ochron\w* czasow\w*|тимчасов\w* захист\w*|временн\w* защит\w*|"
        # a protected identity or a secret address (Sweden's "skyddad identitet")
        r"skyddad identitet|skyddade personuppgifter|hemlig adress|sekretessmarker\w*|"
        r"protected identity|confidential address|address confidentiality|"
        r"work (permit|visa)|legal status|immigration status|permiso de (trabajo|residencia)|"
        r"arbeitserlaubnis|permis de (travail|s[ée]jour)|permesso di (lavoro|soggiorno)|"
        r"autoriza[cç][aã]o de (trabalho|resid[eê]ncia)|arbetstillst[aå]nd|"
        r"uppeh[aå]llstillst[aå]nd|разрешени\w* на (работу|жительство)|"
        r"criminal record|convicted|conviction|arrested|prison|jail|parole|probation|"
        # ... in the Romance languages and German: "condenado por furto", "condannato",
        # "antecedentes penales", "casier judiciaire", "vorbestraft"
        r"condenad[oa]s? (?:por|a)|condannat[oa] (?:per|a)|condamn[ée]e? (?:pour|à)|"
        r"antecedentes (?:penales|criminais)|casier judiciaire|precedenti penali|vorbestraft|"
        r"verurteilt|ficha criminal|cadena perpetua|pris[ãa]o|cárcel|prigione|"
        # a driving offence and the licence it cost: "körkortet indraget efter rattfylleri",
        # "DUI", "Führerschein entzogen", "retirada del carnet", "лишили прав", "酒驾"
        r"dui|dwi|drunk[- ]driving|drink[- ]driving|driving under the influence|"
        r"(?:driving |driver'?s )?licen[cs]e (?:was |got |has been |been )?(?:revoked|suspended|"
        r"taken away|withdrawn)|(?:lost|losing) (?:his|her|their|the|my) (?:driving |driver'?s )?"
        r"licen[cs]e|banned from driving|driving ban|rattfyller\w*|rattfull\w*|"
        r"k[öo]rkort\w* (?:indraget|[åa]terkallat|beslagtaget)|"
        r"(?:indraget|[åa]terkallat) k[öo]rkort|"
        r"trunkenheit am steuer|alkohol am steuer|f[üu]hrerschein (?:entzogen|weg|abgenommen|"
        r"los)|fahrverbot|(?:retirada|retiraron|suspensi[oó]n) del (?:carnet|carn[eé])|"
        r"conducci[oó]n (?:bajo los efectos|en estado de embriaguez)|conduc[ií]a borracho|"
        r"conduite (?:en état d'ivresse|sous l'emprise)|alcool au volant|"
        r"permis (?:suspendu|retiré|annulé|retire|annule)|retrait de permis|"
        r"guida in stato di ebbrezza|patente (?:sospesa|ritirata|revocata)|"
        r"(?:carteira|cnh) (?:suspensa|cassada|apreendida)|embriaguez ao volante|lei seca|"
        r"rijden onder invloed|rijbewijs (?:ingevorderd|ingetrokken|kwijt)|rijontzegging|"
        r"jazd\w* (?:po pijanemu|pod wp[łl]ywem)|prawo jazdy (?:zatrzyman\w*|odebran\w*)|"
        r"[řr]idi[čc]sk\w* pr[uů]kaz (?:zadr[žz]en|odebr[aá]n)|"
        r"ehliyet\w* (?:al[ıi]nd[ıi]|iptal|el konul)|alkoll[üu] ara[çc]|"
        r"mengemudi dalam keadaan mabuk|SIM (?:dicabut|ditahan)|"
        r"say r[ưu][ợo]u l[áa]i xe|t[ướu][ớo]c b[ằa]ng l[áa]i|"
        r"ajokortti \w+ (?:pois|hyllytetty)|rattijuopu\w*|"
        r"лишили прав|лишён прав|лишен прав|лишени\w* (?:водительских )?прав|"
        r"(?:вождени\w*|езд\w*) в нетрезвом|пьян\w* за рул[её]м|позбавил\w* прав|"
        r"(situaci[oó]n|situation|estatus|status|statut|situa[cç][aã]o|situazione|"
        r"aufenthaltsstatus) "
        r"(migratori[oa]|irregular|ilegal|irr[eé]guli[eè]re?|illegale?|clandestin[oa]|"
        r"ungeklärt)|sin papeles|ohne papiere|clandestin[oa]?|senza permesso|"
        r"inmigra\w*|indocumentad[oa]|asilo|Aufenthalts\w*|Asyl\w*|sans[- ]papiers|"
        r"иммигра\w*|судимост\w*|irregolar[ei]|irregular(es)?|irrégulier\w*|"
        r"illegal[ei]? (im|e)?migra\w*|immigrat[oa] irregolare|senza documenti|"
        r"(był|była|byli) karan[ya]|karany|karana|niekaran\w*|wyrok\w*|skazan\w*|"
        r"vorbestraft|strafregister|casier judiciaire|antecedentes penales|"
        # criminal proceedings against the user: "ha un procedimento penale in corso"
        r"procedimento penale|processo penale|procedimiento penal|proceso penal|"
        r"procédure pénale|processo criminal|strafverfahren|antecedenti penali|"
        r"precedenti penali|ficha criminal|sabıka\w*|sabika\w*|strafblad|"
        r"antecedentes criminais|registo criminal|cadastro criminal|brottsregist\w*|"
        # a criminal record in Swedish, Norwegian, Danish, Finnish, Italian, Czech, Polish,
        # Hungarian, Vietnamese, Indonesian ("finns i belastningsregistret", "fedina penale")
        r"belastningsregist\w*|strafferegist\w*|straffeattest\w*|rikosrekister\w*|"
        r"fedina penale|trestn\w* rejst[řr][íi]k\w*|rejestr\w* karn\w*|"
        r"b[üu]ntetett el[őo][ée]let\w*|ti[eề]n [aá]n|l[ýy] l[ịi]ch t[ưu] ph[áa]p|catatan kriminal|"
        r"нелегал\w*|без документов|незаконн\w* мигрант\w*|"
        # Turkish, Indonesian, Polish, Dutch, Vietnamese: a permit to stay, working unlawfully
        r"oturma izn\w*|[cç]al[ıi][sş]ma izn\w*|ikamet izn\w*|ka[cç]ak (olarak )?\w*|"
        r"s[ıi][gğ][ıi]nmac[ıi]\w*|m[uü]lteci\w*|s[ıi]n[ıi]r d[ıi][sş][ıi]\w*|izin tinggal|"
        r"imigran gelap|pendatang ilegal|tanpa dokumen|pencari suaka|suaka politik|pengungsi|"
        r"pozwoleni\w* na pobyt|nielegaln\w*|"
        r"bez dokument[oó]w|verblijfsvergunning|illegaal|asielzoeker\w*|"
        r"nh[aậ]p c[uư] b[aấ]t h[oợ]p ph[aá]p|gi[aấ]y ph[eé]p c[uư] tr[uú]|"
        # asylum and a refugee in Vietnamese: "xin tị nạn", "người tị nạn"
        r"t[ịi] n[ạa]n)\b|"
        r"酒驾|醉驾|酒駕|醉駕|吊销驾照|吊銷駕照|飲酒運転|酒気帯び運転|免許取り?消し|免許停止|"
        r"음주 ?운전|면허 ?(?:취소|정지)|शराब पीकर गाड़ी|"
        r"ποινικό μητρώο|犯罪记录|犯罪記錄|案底|(?:" + _HE + r")(?:רישום פלילי)|سجل جنائي|"
        r"आपराधिक रिकॉर्ड|"
        # a visa run out and a stay without status in Hindi: "वीज़ा समाप्त हो चुका है", "बिना वैध
        # स्टेटस के"
        r"(?:वीज़ा|वीजा)\s+(?:समाप्त|खत्म|ख़त्म|एक्सपायर)|बिना वैध|अवैध (?:रूप से|प्रवासी)|"
        r"ग्रीन कार्ड|"
        r"移民|签证状态|難民|前科|이민|난민|전과|لاجئ\w*|اللاجئ\w*|لجوء|اللجوء|"
        # a Chinese household registration and the residence permit without one
        # (not "用户口令", "用户口味": the user's password, taste)
        r"(?<!用)户口|(?<!用)戶口|户籍|戶籍|居住证|居住證|暂住证|暫住證|外来务工|外來務工|"
        # a status of residence in Japanese, Korean and Chinese: "在留資格は技能実習", "체류 자격"
        r"在留資格|在留カード|永住権|技能実習|特定技能|不法滞在|オーバーステイ|"
        r"체류 ?자격|불법 ?체류|"
        r"영주권|居留许可|居留許可|居留权|居留權|绿卡|綠卡|非法滞留|非法滯留|黑户|黑戶|"
        # a stay past the visa: "逾期居留", "签证过期", "ビザが切れ", "비자 만료"
        r"逾期居留|逾期滞留|逾期滯留|签证(?:已经?|已於|已于)?[^，。,.]{0,6}?(?:过期|過期|到期)|"
        r"簽證(?:已經?|已於)?[^，。,.]{0,6}?(?:過期|到期)|ビザ(?:が|の期限が)?切れ|비자\s?만료|"
        r"беженц\w*|беженк\w*|уголовн\w* преследовани\w*|פליט\w*|शरणार्थी|"
        # a residence permit and deportation in Russian and Ukrainian
        r"\bВНЖ\b|\bПМЖ\b|вид\w* на жительство|посвідк\w* на проживання|депорт\w*|"
        r"убежищ\w*|притулк\w*|внутрішньо переміщен\w*|(?-i:ВПО)|переселен\w*|"
        # asylum in French; police questioning and suspicion in Hebrew and other languages
        r"\b(demandeu(?:r|se)s? d'asile|droit d'asile|asile|titre de séjour|"
        r"under investigation|questioned by (?:the )?police|suspected of|charged with|indicted|"
        r"mis en examen|sous enquête|investigad[oa] por|imputad[oa]|indagat[oa]|"
        r"ermittl\w* gegen|angeklagt)\b|"
        r"(?:" + _HE + r")(?:נחקר|נחקרה|נעצר|נעצרה|חשוד|חשודה)|בחשד ל|כתב אישום|עבר פלילי|"
        r"подозрева\w* в|допрашива\w*|обвиняем\w*|"
        # Czech and Slovak: prison, a criminal record, convicted, arrested, prosecuted
        r"\b(?:v[ěe]zen[íi]|v[äa]zen[íi]|trestn\w* rejst[řr][íi]k\w*|odsouzen\w*|odsúden\w*|"
        r"zat[čc]en\w*|trestn[ěe] st[íi]h\w*)\b|"
        # Thai: jailed, arrested, a criminal record, drink-driving, a licence seized, a refugee,
        # working unlawfully, overstaying a visa
        r"ติดคุก|เคยถูกจับ|ถูกจับกุม|ประวัติอาชญากรรม|ต้องโทษ|เมาแล้วขับ|ยึดใบขับขี่|ใบขับขี่ถูกยึด|"
        r"ผู้ลี้ภัย|ลี้ภัย|แรงงานผิดกฎหมาย|อยู่เกินวีซ่า|วีซ่าขาด",
        _I,
    ),
    # trade-union membership: a special category of its own (GDPR art. 9)
    "trade_union": compile_cached(
        r"\b(union (member\w*|rep\w*|dues|card)|trade[- ]union\w*|labou?r union\w*|"
        r"(member|joined|joins) (of )?(a|the) union|unioni[sz]ed|shop steward|"
        # a member of a union named by its initials: "adhérent à la CGT", "afiliado a CCOO"
        r"(?:adh[ée]rent\w*|adh[ée]r\w*|afiliad[oa]|iscritt[oa]|filiad[oa]|mitglied)\s+"
        r"(?:à la |à l'|au |a la |a |al |alla |in der |bei der |der |de la |de l'|du |de |del |"
        r"della |dello |do |da )?(?-i:[A-Z]{2,6})\b|"
        # "a member of the warehouse workers' union"
        r"member of (?:a|the|their|his|her) [^.;!?\n]{0,40}\bunion|"
        r"gewerkschaft\w*|sindacat\w*|sindical\w*|sindicat\w*|syndiqu\w*|syndicat\w*|"
        r"fackförbund\w*|fackforbund\w*|vakbond\w*|vakbondslid|związ\w* zawodow\w*|"
        r"zwiazk\w* zawodow\w*|sendika\w*|sindikat\w*|"
        # Czech and Slovak ("členem odborů"; "odbor" alone is a department), Hungarian,
        # Finnish, Danish and Norwegian, Greek, Indonesian, Vietnamese, Romanian
        r"odbor(?:y|ů|ech|ům|ami|ov|och|om)|odborov\w+|odbor[aá][řr]\w*|szakszervezet\w*|"
        r"ammattiliit\w*|ay-j[äa]sen\w*|fagforening\w*|fagforbund\w*|συνδικ\w*|"
        r"serikat (?:pekerja|buruh|karyawan)|c[oô]ng đo[àa]n)\b|"
        r"профсоюз\w*|профспілк\w*|สหภาพแรงงาน|הסתדרות|ועד (?:העובדים|עובדים)|"
        r"工会|工會|労働組合|労組|노조|노동조합|ट्रेड यूनियन|नक़ाबा|نقابة|نقابي",
        _I,
    ),
    "location": compile_cached(
        r"\b(lives? (in|at|on|near)|living in|home address|address|resides?|residence|hometown|"
        r"lives_in|home_city|home_town|located in|vive en|wohnt in|"
        r"habite (à|a|en|au|aux|dans|rue|sur)|habitent (à|a|en|au)|mora (em|no|na)|"
        r"abita (a|in)|vive (a|in|em|no|na)|woont (in|op)|mieszka w|bor (i|på)|живёт в|"
        r"живет в|"
        # a home's address in other languages: "живёт по адресу", "wohnt in der ...straße",
        # "domicilio", "adresse du domicile", "indirizzo di casa", "endereço residencial"
        r"(?:живёт|живет|проживает|зарегистрирован\w*) (?:по адресу|на улице|на ул)|"
        r"домашн\w* адрес\w*|адрес проживания|wohnadresse|wohnanschrift|privatadresse|"
        r"wohnt (?:an|am|auf|im)|domicilio|direcci[oó]n (?:de casa|particular)|"
        r"adresse (?:du domicile|personnelle|postale)|indirizzo di casa|"
        r"endere[cç]o (?:residencial|de casa)|hemadress\w*|woonadres|adres zamieszkania|"
        r"adresa de domiciliu|domiciliu|"
        # on a street, by a place: "woont aan de Oudegracht 112", "mieszka na ulicy Długiej",
        # "bydlí v Praze", "tinggal di Jalan Sudirman", "sống ở quận 3", "abita vicino a"
        r"woont (?:aan|bij|naast|vlakbij|tegenover)|wohnt (?:bei|neben|nahe)|"
        r"vive (?:cerca de|junto a|al lado de|perto|ao lado)|habite (?:près|pres|à côté)|"
        r"mora (?:perto|ao lado|em frente)|abita (?:vicino|in via|al|alla|nel|nella)|"
        r"bor (?:vid|nära|nara)|mieszka (?:na|przy|obok|koło|kolo|we)|"
        r"(?:живёт|живет|проживает) (?:на|у|около|рядом)|проживает в|"
        r"(?:живе|мешкає) (?:в|у|на|біля)|bydl[ií] (?:v|ve|na|u|blízko|kousek)|"
        r"býva (?:v|vo|na|pri)|tinggal di|s[oố]ng (?:[oở]|t[aạ]i)|locuie[sș]te (?:[iî]n|pe)|"
        r"\S+'?(?:de|da|te|ta) (?:oturuyor|ya[sş][ıi]yor|ikamet ediyor))\b|"
        r"住在|住址|家庭地址|に住んで|에 살|में रहत|อาศัยอยู่|บ้านอยู่|พักอยู่ที่|ที่อยู่บ้าน|"
        # Arabic and Hebrew: lives in, resides, a home address
        r"(?<![\u0600-\u06ff])(?:يسكن|تسكن|يقيم|تقيم|يعيش في|تعيش في|عنوان المنزل|عنوانه|عنوانها)"
        r"(?![\u0600-\u06ff])|(?:גר|גרה|מתגורר|מתגוררת)\s+ב|כתובת (?:המגורים|הבית)",
        _I,
    ),
}
# (Indic and Thai letters with their vowel signs, which are marks: "गर्भवती" is one word)
_WORD = compile_cached(
    r"(?:[^\W\d_]|[\u0900-\u0dff\u0e00-\u0e7f]){2,}|(?<![\d.,])\d[\d.,]*(?:\s?k\b)?", _I
)
# Words that say which category a claim is in, not what it claims: "lives in" needs no
# grounding, "Lyon" does (the provenance check weighs it).
_RELATION_WORDS = """\
live lives living home address reside resides residence located hometown work works
working employed employer job salary income earns earn earning wage wages year month
annual annually per condition health medical finances savings religion religious faith
political politics sexuality marital family party parti partei partido partito medication
medicine meds prescription prescribed treatment doctor illness disease diagnosis diagnosed
chronic مصاب مصابة живёт живет проживает адресу адрес wohnadresse domicilio
sertraline fluoxetine escitalopram citalopram paroxetine venlafaxine bupropion metformin
insulin levothyroxine"""
_RELATION = frozenset(_RELATION_WORDS.split())
# Scripts read as runs of characters, not words: CJK and kana, Hangul, and Thai, Lao, Myanmar
# and Khmer, which put no space between words ("ผมเป็นเบาหวาน" holds "เบาหวาน").
_CJK = compile_cached(
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]"
)
# CJK words that say a claim is about health, not what it claims: "患有抑郁症" claims "抑郁",
# which "我有抑郁症" grounds; "服用" is "takes", as "吃" says it.
_CJK_RELATION = frozenset({"患有", "服用", "健康状况", "健康狀況"})


# What people say for the word a model writes.
_SHORT_FORMS = {
    "bi": "bisexual",
    "trans": "transgender",
    "ace": "asexual",
    "enby": "non-binary",
    # "metformin alone isn't cutting it for my T2", "my endo says"
    "t2": "diabetes",
    "t2d": "diabetes",
    "t1d": "diabetes",
    "endo": "endocrinologist",
}


def categories(text: str) -> list[str]:
    """The sensitive categories ``text`` falls in, read with and without accents ("cáncer"
    is "cancer", "borcu" is "borçu")."""
    folded = skeleton(text)
    return [
        name
        for name, pattern in CATEGORIES.items()
        if prefilter.search(pattern, text) or prefilter.search(pattern, folded)
    ]


# Categories whose matches are relations ("works at", "住在"): their values are names that the
# provenance share weighs, not sensitive words to find.
RELATIONAL = frozenset({"employer", "location"})


# A name, a number or CJK text past the first word: "lives in Lisbon", not "never share the
# user's home address" (which says where nothing is).
# Scripts without capitals (CJK, Hebrew, Arabic, Devanagari, Thai) cannot show a name by its
# case: any word in them may be one, as in "עובד באלביט".
_ENTITY = compile_cached(
    r"(?<=\s)[A-ZÀ-ÖØ-ÞА-ЯЁЄІЇΑ-Ω][\w'’-]+|\d|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|"
    r"[\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f]{2,}"
)


def names_entity(value: str) -> bool:
    return bool(_ENTITY.search(value))


# A question the user asked about a topic ("what are the symptoms of diabetes?") says nothing
# about the user: it grounds no claim. One that speaks of the user or asks the assistant for
# something ("can you find LGBT-friendly hotels?") is the user's own need and does.
# A sentence ends at its mark and a space ("52.000 €" and "279.99" go on).
# (a Chinese or Japanese question often ends in an ASCII "?" with no space after it:
# "抗抑郁药要吃多久?看到有文章说...")
_SENTENCE_END = compile_cached(
    # (not after a title: "One tenant, Mr. Okafor, is three months behind")
    r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<=[.!?؟])\s+|(?<=[。！？])|"
    r"(?<=[!?])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])|\n+|"
    # Greek asks with ";" (or its own "\u037e"): "Πόσο κοστίζει ένα διαζύγιο;"
    r"(?<=[\u0370-\u03ff\u1f00-\u1fff][;\u037e])\s+|"
    # Thai ends a sentence with a space: "...เปิดกี่โมงครับ เพื่อนฝากถามมา"
    r"(?<=[\u0e00-\u0e7f])\s+(?=[\u0e00-\u0e7f])"
)
# A Greek question's mark, read as "?" where a sentence ends.
_GREEK_QUESTION = compile_cached(r"(?<=[\u0370-\u03ff\u1f00-\u1fff])\s*[;\u037e]\s*$")
# A question asked without its mark, by the word or particle that ends it, as Thai always
# asks and Chinese, Japanese and Korean often do: "คลินิกเปิดกี่โมงครับ", "吃这个药能喝酒吗",
# "何時に開きますか。", "비행기 타도 될까요"
_UNMARKED_QUESTION = compile_cached(
    r"(?:ไหม|มั้ย|มั๊ย|หรือเปล่า|หรือไม่|รึเปล่า|หรือยัง|ป่าว|เหรอ|หรอ|หรือ|หรือไง|บ้าง|"
    r"กี่\S{0,8}|อะไร|ที่ไหน|ยังไง|อย่างไร|เท่าไร|เท่าไหร่|เมื่อไร|เมื่อไหร่|ทำไม|"
    r"(?:อะไร|ไหน|ยังไง|อย่างไร)ดี)(?:ครับ|คะ|ค่ะ|คับ|จ๊ะ|จ้ะ|นะ|ฮะ)*\s*$|"
    r"[吗嗎]\s*[。.]?\s*$|(?:です|ます|でしょう|ません|ました|の)か\s*[。.]?\s*$|"
    r"(?:(?<!니)까요?|나요|는지요|[인은는]가요|냐)\s*[.]?\s*$"
)


def _as_question(sentence: str) -> str:
    """A sentence with its question mark: the Greek one read as "?", one added where the
    words alone ask ("…กี่โมงครับ")."""
    sentence = _GREEK_QUESTION.sub("?", sentence)
    if _UNMARKED_QUESTION.search(sentence):
        return sentence.rstrip().rstrip("。.") + "?"
    return sentence


# The question of "Tengo diabetes, ¿qué llevo?" is what follows its last comma or "¿".
# a dash between words breaks a clause too: "I vote Green — can you help me ...?"
# (Korean joins a statement to its question by an ending: "임신 12주인데 비행기 타도 괜찮을까?")
# Korean clause endings, read alike wherever a clause is split: "-는데"/"-인데" and "-지만"
# ("but", "so"), "-니까"/"-어서"/"-아서"/"-면서" ("because", "while"); "-고"/"-며" ("and").
KOREAN_BUT = r"(?:(?<=[인는은]데)|(?<=지만|면서|니까|어서|아서))"
KOREAN_AND = r"(?<=[며고])"
_CLAUSE_BREAK = compile_cached(
    rf"(?<!\d)[,:]|[,:](?!\d)|[;¿，；：、]|\s[—–-]+\s|{KOREAN_BUT}\s+(?=[\uac00-\ud7a3])"
)
_FIRST_PERSON = compile_cached(
    # the English "I" in capitals, or in lower case before a verb: not the Italian "i sintomi"
    r"\b(?-i:I)\b|\bi(?=\s+(am|have|had|was|do|did|don'?t|get|got|take|took|feel|felt|think|"
    r"need|want|can|could|should|will|would|just|really|also|still|never|always|might|may|must|"
    r"live|work|[a-z]+ed)\b)|"
    r"\b(i'm|i've|i'd|me|my|mine|we|our|us|yo|mi|mis|me|ich|mein\w*|mir|mich|je|j'|moi|"
    r"mon|ma|mes|eu|meu|minha|io|mio|mia|jag|min|mitt|я|мне|меня|мой|моя|моё|ik|mijn|ja|mój|"
    r"moja|ben|benim|you|your|tu|te|usted|du|dich|dir|vous|você|ты|вы|sen|jij|je|"
    # Czech, Slovak and Polish: "Sám jsem členem odborů", "jestem" (not "já", the Portuguese
    # "already"; not "som", the Swedish "as")
    r"jsem|jsme|můj|moje|mého|mně|mě|mnou|náš|naše|sám|môj|mne|jestem|mnie)"
    r"\b(?<!\bUS)"
    # (the EU in capitals is no Portuguese "eu": "what do coaches earn in the EU?")
    r"(?<!\b(?-i:EU))|"
    # Korean pronouns with their particle, not inside a word ("되나요", "저녁")
    r"我|私|僕|俺|(?<![가-힣])(?:나는|나도|나의|내가|저는|저도|저의|제가|(?:내|제)\s)|你|您|あなた|"
    r"당신|"
    # Thai pronouns, written into the words around them: "ผมเป็นเบาหวาน"
    r"ผม(?!ร่วง|หงอก|ยาว|สั้น|บาง)|ฉัน|ดิฉัน|หนู|กระผม|"
    # Korean "I" before a space ("나 게이야"); Hindi, Arabic, Hebrew, Greek,
    # Vietnamese and Indonesian: "मुझे टाइप 1 डायबिटीज़ है", "इंसुलिन पंप लगाती हूँ", "عندي",
    # "אני", "έχω", "tôi", "saya"
    r"(?<![가-힣])나\s|(?<![\u0900-\u0963\u0971-\u097f])(?:मैं|मुझे|मुझको|मेरा|मेरी|मेरे|हमें|"
    r"हमारा|हमारी|हमारे|हूँ|हूं)(?![\u0900-\u0963\u0971-\u097f])|"
    r"(?<![\u0600-\u06ff])(?:أنا|انا|لدي|لديّ|عندي|إنني)(?![\u0600-\u06ff])|"
    r"(?<![א-ת])(?:אני|שלי|אצלי)(?![א-ת])|"
    r"(?<![^\W\d_])(?:εγώ|έχω|είμαι|μου|tôi|tớ|saya|aku|gue|gw)(?![^\W\d_])",
    _I,
)
# Letters of Czech, Slovak and the South Slavic languages, where "je" is "is" ("Jaký je
# rozdíl ...?"), not the French "I" or the Dutch "you".
_SLAVIC_LETTERS = compile_cached(r"[ěščřžůťďňľĺŕđ]", _I)


def _first_person(text: str) -> bool:
    """Does ``text`` speak of the user or to the assistant (a first- or second-person word)?"""
    slavic = _SLAVIC_LETTERS.search(text) is not None
    return any(not (slavic and m.group(0).lower() == "je") for m in _FIRST_PERSON.finditer(text))


# What a question says of no one: the generic "you" ("how do you get out of debt?", "hoe kom
# je uit de schulden?", "wie kommt man ..."), and the Turkish question particle "mi", which
# is not the Spanish or Italian "my".
_IMPERSONAL_QUESTION = compile_cached(
    r"^\s*(how|what|where|when|why|which)\s+(do|can|does|should|would|could|will)\s+"
    r"(you|one)\b|"
    # "is it true you shouldn't eat sushi ...?", "should you ...?": anyone, not the user
    r"^\s*(is it (really )?(true|ok|okay|safe|fine|bad|normal)( that)?|(should|shouldn'?t|must|"
    r"mustn'?t|can|can'?t) (you|one) (really )?(not )?(eat|drink|take|have|get|do|use|go|fly|"
    r"travel|exercise))\s+((that )?(you|one)\b)?|"
    r"^\s*(hoe|wat|waar|wanneer|waarom)\s+[^\W\d_]+\s+(je|jij)\b|"
    r"^\s*(wie|was|wo|wann|warum)\s+[^\W\d_]+\s+man\b|"
    r"\s(mi|mı|mu|mü)\s*(?=[?？]?\s*$)",
    _I,
)


# A request about a topic is a question too: "당뇨에 좋은 음식 알려줘", "find me a yoga routine",
# "うつ病について教えて". Only what is left once the request words are gone can speak of the user.
_REQUEST = compile_cached(
    # a text to work on: "Summarize this article about ...", "帮我总结一下这篇关于…的新闻"
    r"^\s*(?:please\s+)?(?:summari[sz]e|translate|proofread|paraphrase)\b|"
    r"^\s*(?:请|請)?(?:帮我|幫我)?(?:总结|總結|概括|翻译|翻譯)|"
    r"^\s*(please\s+|can you\s+|could you\s+)?(tell me( about)?|explain|recommend|suggest|"
    r"give me|find me|show me|list|describe|look up|search for|dime|expl[ií]came|recomi[eé]ndame|"
    r"busca|sag mir|erkl[aä]re|empfiehl|such|dis-moi|explique(-moi)?|recommande-moi|cherche|"
    r"dimmi|spiegami|consigliami|cerca|me (diga|explique|recomende)|berätta|förklara|"
    r"расскажи|объясни|посоветуй|найди)\b|"
    r"(알려\s*줘|알려\s*주세요|추천해\s*줘|추천해\s*주세요|가르쳐\s*줘|설명해\s*줘|찾아\s*줘|"
    r"教えて(ください)?|おしえて|を?知りたい|探して|告诉我|告訴我|推荐一下|推薦一下|介绍一下|"
    r"介紹一下|说明一下|說明一下)\s*[.!。！]*\s*$",
    _I,
)


def _topic_request(sentence: str) -> bool:
    """A request that asks for something on a topic and says nothing of the user."""
    match = _REQUEST.search(sentence)
    if not match or _CLAUSE_BREAK.search(sentence):
        return False
    rest = sentence[: match.start()] + sentence[match.end() :]
    rest = re.sub(r"\b(me|my|mir|moi|mi|me|мне)\b\s*$", "", rest.strip(), flags=_I)
    return not _first_person(rest)


# "my friend is pregnant", "我朋友最近离婚了": a statement about someone else, which says nothing
# of the user (unless the user is in it too: "my wife and I are both Hindu").
_SOMEONE_ELSE = compile_cached(
    r"^\W*(my|our|mi|mis|mein\w*|mon|ma|mes|meu|minha|mio|mia|min|mijn|m[oó]j|moja|moi|moje|"
    r"mojego|mojej|mojemu|nasz|nasza|nasi|a|an|the|"
    r"un|una|uno|une|um|uma|ein|eine|einer|en|ett|een|one|another)\s+"
    # someone made up: "my main character Ruth has ...", "min karakter Frode", "die Hauptfigur"
    r"([^\W\d_]+\s+)?(characters?|protagonist|heroine|hero|narrator|villain|karakter|"
    r"personaje|personnage|personaggio|personagem|hauptfigur|figur|"
    r"friends?|sister|brother|sibling|mother|mom|mum|father|dad|son|daughter|"
    r"wife|husband|partner|girlfriend|boyfriend|colleague|coworker|boss|neighbou?r|cousin|aunt|"
    r"uncle|grand\w+|kids?|child|children|niece|nephew|roommate|flatmate|amig[oa]|herman[oa]|"
    r"madre|padre|freund\w*|schwester|bruder|mutter|vater|ami|amie|s[oœ]ur|fr[eè]re|"
    r"cugin[oa]|sorella|fratello|marito|moglie|figli[oa]|nonn[oa]|zi[oa]|vicin[oa](?!\s+(?:a|ad|al|alla|allo|ai|alle|casa|di|da)\b)|prim[oa]|"
    r"hij[oa]|espos[oa]|vecin[oa]|t[ií][oa]|irm[ãa]o?|m[ãa]e|pai|filh[oa]|vizinh[oa]|marido|"
    r"nachbar\w*|cousin\w*|tante|onkel|voisin\w*|mari|femme|fille|fils|"
    # whom the user works for or teaches: "my client from Afghanistan", "mi paciente"
    r"clients?|patients?|students?|customers?|tenants?|mentees?|cliente|paciente|alumn[oa]|"
    r"estudiante|[ée]l[èe]ve|klient\w*|patient\w*|sch[üu]ler\w*|kund\w*|paziente|alunn[oa]|"
    r"studente|klant|cli[ëe]nt|pati[ëe]nt|leerling|elev|alun[oa]|"
    # Polish: "Moja siostra bierze sertralinę", "mój brat", "moi rodzice"
    r"siostr[ay]|brat|mama|matka|ojciec|tata|syn|c[óo]rka|m[ąa][żz]|[żz]ona|rodzice|"
    r"przyjaci\w+|kolega|kole[żz]anka|babcia|dziadek|ciocia|wujek|s[ąa]siad\w*|kuzyn\w*|"
    r"szef\w*|pacjent\w*|ucze[ńn]|uczennica|wsp[óo]lokator\w*)\b|"
    # Hindi names the person after "my": "मेरे क्लाइंट का H-1B वीज़ा", "मेरी बहन"
    r"^\W*(?:मेरे|मेरी|मेरा|हमारे|हमारी|हमारा)\s+(?:क्लाइंट|ग्राहक|मरीज़?|दोस्त|मित्र|भाई|बहन|"
    r"माँ|मां|माता|पिता|पापा|पति|पत्नी|बेटे|बेटा|बेटी|सहकर्मी|बॉस|पड़ोसी|चाचा|चाची|मामा|मामी|"
    r"दादा|दादी|नाना|नानी|छात्र)|"
    # (Spanish "he" before a participle is "I have": "He votado al PSOE toda la vida")
    r"^\W*(he(?!\s+[^\W\d_]+[aií]d[oa]s?\b)|she|they|er|sie|ella|él|elle|il|lei|lui|он|она|"
    r"они|він|вона|вони)\s|^\W*(?:he|she|they)['’](?:s|d|ll|re|ve)\b|"
    # the people a product is for: "their target users are bi women in their 30s"
    r"^\W*(?:their|its)\s+(?:target\s+)?(?:users|audience|readers|viewers|customers)\b|"
    # Russian and Ukrainian "my friend", "my mother", also after "which": "письмо, которое мой
    # друг Артём пишет"
    r"^\W*(?:(?:которое|который|которая|которые|которую|яке|який|яка|які|и|і)\s+)?"
    r"(?:мой|моя|мои|моего|моей|моему|моим|наш|наша|наши|нашего|нашей|мій|моя|мої|мого|моєї|"
    r"наш|наша|наші)\s+(?:[^\W\d_]+\s+)?(?:друг\w*|подруг\w*|сестр\w*|брат\w*|мам\w*|пап\w*|"
    r"мать|матер\w*|отец|отц\w*|сын\w*|доч\w*|муж\w*|жен\w*|коллег\w*|сосед\w*|бабушк\w*|"
    r"дедушк\w*|дяд\w*|тёт\w*|тет\w*|племянни\w*|начальни\w*|клиент\w*|пациент\w*|учени\w*|"
    r"ребён\w*|ребен\w*|дет\w*|знаком\w*|товарищ\w*|батьк\w*|мати|чоловік\w*|дружин\w*|"
    r"син\w*|донь\w*|персонаж\w*|герой\w*|героин\w*)(?![^\W\d_])|"
    # Hungarian says "my" as an ending: "A nagybátyám boltja csődbe megy", "anyám", "a férjem"
    r"^\W*(?:az?\s+)?(?:nagybátyám|nagynéném|anyám|apám|anyukám|apukám|feleségem|férjem|fiam|"
    r"lányom|barátom|barátnőm|nővérem|bátyám|öcsém|húgom|nagymamám|nagyapám|kollégám|"
    r"szomszédom|unokatestvérem|főnököm|ügyfelem|párom|gyerekem|gyermekem)\w*|"
    # Persian says "my" as an ending: "خواهرم تازه تشخیص ... گرفته" (my sister); Bengali names
    # whose first: "বাবার দোকানের ..." (my father's shop)
    r"^\W*(?:خواهرم|برادرم|مادرم|پدرم|همسرم|شوهرم|دخترم|پسرم|دوستم|مادربزرگم|پدربزرگم|"
    r"همکارم|خاله‌?ام|دایی‌?ام|عمویم)(?![\u0600-\u06ff])|"
    r"^\W*(?:আমার\s+)?(?:বাবার|মায়ের|ভাইয়ের|বোনের|স্বামীর|স্ত্রীর|ছেলের|মেয়ের|বন্ধুর|দাদার|দিদির|"
    r"চাচার|মামার|বাবা|মা|ভাই|বোন)(?![\u0980-\u09ff])|"
    # a role-play's or a story's character in Chinese: "我在跑团里的角色林舟是 ..."
    r"跑团|跑團|角色扮演|我的角色|里的角色|裡的角色|小说里|小說裡|故事里|故事裡|"
    # Thai names the person first, with no space after: "แม่เป็นเบาหวาน" (not "แม่น้ำ", a river)
    r"^\W*(?:คุณ)?(?:แม่(?!น้ำ)|พ่อ|ลูก(?:ชาย|สาว)?|สามี|ภรรยา|แฟน|เพื่อน|ยาย|ปู่|ย่า|ป้า|ลุง|"
    r"หลาน|เจ้านาย)|"
    # anyone at all: "wenn jemand einen negativen Schufa-Eintrag hat", "if someone has ..."
    r"^\W*((if|when|wenn|falls|si|cuando|quand|se|quando|om|als|jeśli|если)\s+)?(someone|"
    r"somebody|anyone|a person|jemand|alguien|quelqu'un|qualcuno|alguém|någon|iemand|ktoś|"
    r"кто-то|кто-нибудь)\b|"
    r"^\W*我的?(朋友|姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|母亲|父亲|老公|老婆|同事|老板|孩子|儿子|女儿|邻居|"
    # ... and said short: "我妈在吃华法林", "我爸", "我姐"
    r"爷爷|奶奶|外公|外婆|姥姥|姥爷|婆婆|公公|岳母|岳父|舅舅|阿姨|叔叔|姑姑|男朋友|女朋友|对象|"
    r"妈|爸|哥|姐|弟|妹)|"
    # ... or without "my": "朋友欠了卡債在問我"
    r"^\W*(朋友|同事|鄰居|邻居|親戚|亲戚)(欠|有|在|得|生|说|說|问|問)|"
    r"^\W*(他|她|他们|她们)|"
    # Japanese and Korean name the person first: "チームのメンバーがパニック障害っぽくて",
    # "동료가 공황장애라서"
    r"^\W*(?:[^\W\d_]{1,8}の)?(友達|友人|同僚|上司|部下|母|父|夫|妻|息子|娘|兄|姉|弟|妹|彼氏|"
    r"彼女|彼|子供|子ども|メンバー|後輩|先輩|家族|親|知り合い)(?:が|は|も|の[^\W\d_]{1,12}?(?:が|は|も))|"
    # ... or an attribute of theirs inside a clause: "ムスリムの同僚を夕食に招きたい", "信佛的同事"
    r"[^\W\d_]の(?:同僚|友達|友人|上司|部下|知り合い|隣人|お客さん|客|生徒|学生|患者)(?:を|に|と|が|は|の)|"
    r"[^\W\d_]的(?:同事|朋友|邻居|鄰居|老板|老闆|同学|同學|亲戚|親戚|客户|客戶|学生|學生|病人)|"
    r"^\W*+(?:제|내|우리)?\s*(친구|동료|상사|엄마|아빠|어머니|아버지|남편|아내|아들|딸|형|누나|오빠|"
    r"언니|동생|팀원|후배|선배|가족|지인|아이|애|아기|조카|할머니|할아버지|삼촌|이모|고모|사촌|"
    r"남자친구|여자친구|친척|이웃|손자|손녀|부모님|시어머니|장모님|주인공|캐릭터)"
    r"(?:가|이|는|은|도|께서)(?![^\W\d_])|"
    # Vietnamese says "my" after the person: "Ba mình mới bị chẩn đoán", "mẹ tôi", "bạn của tớ"
    r"^\W*+(?:ba|bố|mẹ|má|anh|chị|em|bạn|vợ|chồng|con|cô|chú|bác|ông|bà|dì|cậu|"
    r"đồng nghiệp|sếp|hàng xóm)\s+(?:trai\s+|gái\s+)?(?:của\s+)?(?:mình|tôi|tớ|tao)(?![^\W\d_])|"
    # Hebrew and Greek say "my friend" with the pronoun after: "חבר שלי", "μια συνάδελφό μου"
    r"^\W*(חבר|חברה|קולגה|שכן|שכנה|אח|אחות|בן דוד|בת דודה|אמא|אבא)\s+שלי|"
    # ... or as an ending: "אחותי" (my sister), "אמי", "בעלי", "בן זוגי"
    r"^\W*(?:אחותי|אחי|אמי|אבי|אשתי|בעלי|בני|בתי|סבתי|סבי|דודי|דודתי|חברי|חברתי|"
    r"בן זוגי|בת זוגי|שכני|שכנתי)(?![\u05d0-\u05ea])|"
    r"^\W*+(ο|η|ένας|μια|μία)?\s*(φίλ|συνάδελφ|γείτον|αδελφ|ξαδέρφ)\w*\s+μου\b|"
    # someone in Russian and Indonesian: "у человека была судимость", "seseorang punya utang"
    r"^\W*у (человека|кого-то|кого-нибудь|знакомого|знакомой|друга|подруги|коллеги)\b|"
    r"^\W*(?:(?:kalau|jika|bila)\s+)?(seseorang|(teman|kakak|adik|ibu|ayah|suami|istri|klien|"
    r"pasien|murid|siswa|mahasiswa|nasabah|pelanggan) (saya|aku|gue|gw))\b|"
    # Turkish says "my" as an ending, and whose after it: "Kuzenimin oturma izni", "Annem"
    r"^\W*(?:annem|babam|karde[şs]im|ablam|abim|a[ğg]abeyim|kuzenim|arkada[şs]ım|e[şs]im|kocam|"
    r"karım|o[ğg]lum|kızım|dedem|ninem|teyzem|halam|amcam|dayım|kom[şs]um|patronum|"
    r"meslekta[şs]ım|m[üu][şs]terim|hastam|[öo][ğg]rencim)(?:in|ın|un|ün|nin|nın|nun|nün)?"
    # (not with "we" in the verb: "Eşim Ayşe'yle boşanma sürecindeyiz", my wife and I)
    r"(?![^\W\d_])(?![^.,;!?]*[^\W\d_](?:[iıuü]z)\b)|"
    # Arabic says "my" as an ending, and names whose first: "زوجة أخي" (my brother's wife)
    r"^\W*(?:[^\W\d_]+\s+)?(?:أخي|أختي|صديقي|صديقتي|أمي|أبي|والدي|والدتي|ابني|ابنتي|زوجي|"
    r"زوجتي|جاري|جارتي|زميلي|زميلتي|خالتي|عمتي|خالي|عمي|جدتي|جدي)(?![^\W\d_])|"
    # Hindi: "मेरी बहन", "मेरे दोस्त", "मेरा भाई"
    r"^\W*(?:मेरी|मेरे|मेरा|हमारी|हमारे|हमारा)\s+(?:[^\s]+\s+)?(?:बहन|भाई|दोस्त|सहेली|माँ|मां|कज़िन|कजिन|"
    r"पिता|पापा|मम्मी|पत्नी|पति|बेटा|बेटी|पड़ोसी|सहकर्मी|भाभी|चाचा|चाची|मामा|मामी|दादी|दादा|"
    r"नानी|नाना)(?![^\W\d_])",
    _I,
)
_AND_I = compile_cached(
    r"\b(and i|and me|i|i'm|we|we're|us|e eu|y yo|et moi|und ich|e io|en ik|och jag|og jeg|"
    r"i ja|и я|ve ben|dan saya|dan aku|và tôi|ja minä|a já)\b|我们|我們|和我|跟我",
    _I,
)
# An example or a made-up case, opening a sentence ("Say, somewhere like Northwind", "e.g. a
# teacher in Ohio", "比如在上海"): after a question, the case it asks about.
# A case made up to ask about, opening a clause in either pattern below: "let's say", "比如".
_FOR_EXAMPLE = r"let'?s say|for (?:example|instance)|比如|譬如|例如|假如|假设|假設"
_EXAMPLE = compile_cached(
    # (not a bare "like", which a user also opens a statement with: "Like, I have it too")
    r"^\W*(?:say,|e\.\s?g\.|i\.\s?e\.|such as|(?:somewhere|something|someone|somebody) "
    rf"like|{_FOR_EXAMPLE}|por ejemplo|digamos|zum beispiel|z\.\s?b\.|"
    r"sagen wir|par exemple|disons|ad esempio|per esempio|mettiamo|por exemplo|"
    r"bijvoorbeeld|bv\.|till exempel|t\.\s?ex\.|na przyk[lł]ad|np\.|например|скажем|наприклад|"
    r"örneğin|mesela|misalnya|contohnya|ví dụ|chẳng hạn|例えば|たとえば|예를 들어|예컨대)"
    r"(?![^\W\d_])",
    _I,
)
# "Hypothetically, if the metalworkers strike, ...", "Hipoteticamente, se ...": a sentence
# that says it is made up states nothing of the user, whichever of its clauses says so.
_HYPOTHETICALLY = (
    r"hypothetically|hipot[eé]ticamente|hypoth[eé]tiquement|ipoteticamente|hypothetisch|"
    r"hypotetiskt|hypotetisk|hipotetycznie|hypoteticky|hypoteettisesti|hipotetikusan|"
    r"ipotetic|гипотетически|гіпотетично|υποθετικά|varsayımsal olarak|farz edelim|diyelim ki|"
    r"giả sử|giả định|secara hipotetis|仮に|もしも|가령|가정해\s?보면|만약에|"
    r"मान लीजिए|मान लो|افتراضيا|افتراضيًا|لنفترض|היפותטית|נניח"
)
_MADE_UP = compile_cached(rf"(?:^|[,:;，；：、])\W*(?:{_HYPOTHETICALLY})(?![^\W\d_])", _I)
# "if I were to lose my job", "what if", "suppose": a hypothetical states nothing
_HYPOTHETICAL = compile_cached(
    # "公司如果裁员，…怎么算": an "if" a few characters into the clause
    # (not "主要是", mainly: "我主要是胃不好")
    r"^[^，。！？,.!?\n]{0,8}?(?:如果|假如|(?<!主)要是|万一|萬一)|"
    r"^\W*(if i (were|was|had|lost|got|did)|what if|suppose|supposing|hypothetically|imagine|"
    r"say i|in case i|si (yo )?(perdiera|tuviera|fuera)|wenn ich \w+ würde|如果我|"
    # "Допустим, ...", "Kalau seandainya seseorang ...": suppose
    r"допустим|предположим|представим|(kalau )?seandainya|andaikan|misalkan|"
    # a case made up to ask about: "in a hypothetical where a debtor earns ...", "let's say"
    # ("比如月薪三万的话": an example, not the user's pay)
    rf"(in )?an? hypothetical|hypothetical\w*|{_FOR_EXAMPLE}|要是|{_HYPOTHETICALLY}|"
    # a story, not the user: "I'm writing a novel where the heroine has ...", "in my script"
    r"(i'?m|i am|we'?re) (writing|drafting|plotting) an? (novel|story|book|script|screenplay|"
    r"play|poem|scene|character)|(in|for) my (novel|story|book|script|screenplay|play|game)\b|"
    r"in meinem (?:roman|buch|drehbuch|theaterstück)|in meiner geschichte|"
    r"en mi (?:novela|historia|guion|libro)|dans mon (?:roman|histoire|scénario|livre)|"
    r"nel mio (?:romanzo|racconto|libro)|no meu (?:romance|livro|roteiro)|"
    r"в моём (?:романе|рассказе)|в моем (?:романе|рассказе)|in mijn (?:roman|verhaal|boek)|"
    r"w mojej (?:powieści|książce))",
    _I,
)


# Someone the user may ask for: "a friend of mine asked", "asking bc my cousin ..."
_OTHER_EN = (
    r"(?:friend|mate|buddy|pal|colleague|coworker|co-worker|cousin|sister|brother|"
    r"neighbou?r|relative|roommate|flatmate|classmate|boss|aunt|uncle|mom|mum|dad|wife|"
    r"husband|partner|girlfriend|boyfriend)"
)


# A message that says its question is asked for someone else, for a piece of writing, or
# because the topic came up elsewhere: "Asking for a colleague", "Спрашиваю для статьи в
# блог", "the character of the book I'm writing", "我在看一个普法节目", "Vi pratade om det på
# jobbet idag", "just curious". Such a message states nothing of the user but its own
# first-person statements ("I'm 34 weeks along; asking for my sister too" keeps the first).
_ASKED_FOR_OTHERS = compile_cached(
    # English
    # (not "asking for a raise": for someone)
    rf"\b(asking (for|on behalf of) (a|my|an?other|some) (?:{_OTHER_EN}|relative|family member|"
    r"client|student|patient|customer|kid|child|son|daughter|parent)s?\b|for a friend\b|"
    r"(i'?m|i am|we'?re) (writing|researching|drafting|preparing|doing|working on) (a|an|my|our|"
    r"some) (school |class |uni |university |college |research |group )?(article|blog|post|essay|"
    r"paper|thesis|book|novel|story|script|report|piece|presentation|lecture|class|course|"
    r"project|assignment|homework)|"
    r"for (an?|my|our|the) (?:[\w-]+ )?(article|blog|blog post|essay|paper|thesis|class|course|"
    r"homework|"
    r"assignment|school project|novel|book|story|script|podcast|video|presentation)\b|"
    # an exam or a debate ("For my law school exam: ...", "Mam debatę w szkole"), a pet ("my vet
    # prescribed it for my dog"), a text to translate, a question asked in general
    r"for (an?|my|our|the) ([\w-]+ ){0,2}?(exam|test|quiz|midterm|finals?|debate|moot court)\b|"
    r"\b(the|my|our) (vet|veterinarian)\b|for my (dog|cat|pet|puppy|kitten|horse|rabbit|parrot|"
    r"hamster)\b|"
    r"\bmam debat\w*|\bdebat\w* (w szkole|na lekcji|in school|at school|op school|en clase)|"
    # (a request to translate a text, not the user's trade: "je suis traductrice")
    r"\btranslate (this|that|these|it|the following)\b|\btradu(is|isez|ce|zca|za|ci|cimi)\b|"
    r"\b(översätt|oversæt|vertaal|übersetze|przetłumacz|переведи|переведите|çevir)\w*\s+"
    r"(det|dit|dies|das|to|это|bunu|deze|den)\b|翻訳して|翻译一下|翻譯一下|번역해|"
    r"(just )?a general question|سؤال عام|pregunta general|pergunta geral|allgemeine frage|"
    r"question générale|一般的な質問|一般性的?问题|일반적인 질문|"
    r"(estoy|estou) (escribiendo|escrevendo) (un|una|um|uma) (libro|livro|novela|romance|"
    r"historia|história|cuento|conto|guion|roteiro)|"
    r"(ik )?(maak|houd|geef|schrijf) (een|mijn) (spreekbeurt|werkstuk|presentatie|"
    r"profielwerkstuk|betoog|artikel|verhaal|roman|boek|scriptie|essay|blog)|"
    # a piece of writing in more languages: "sto scrivendo un romanzo", "ich schreibe einen
    # Artikel", "пишу статью", "sedang menulis novel", "أكتب رواية", "उपन्यास लिख रहा हूँ"
    r"sto scrivendo (un|una) (romanzo|articolo|libro|racconto|tesi|saggio)|"
    r"ich schreibe (?:[^\W\d_]+ ){0,3}?(einen|ein|eine|meine) (artikel|roman|buch|hausarbeit|"
    r"geschichte|bachelorarbeit|masterarbeit|blog\w*)|"
    r"пишу (статью|роман|книгу|рассказ|курсовую|диплом|реферат|пост)|"
    r"(sedang )?menulis (novel|artikel|cerita|buku|skripsi|makalah)|"
    r"أكتب (رواية|مقالا?|قصة|بحثا?)|"
    # Greek: "Γράφω εργασία για τη σχολή", "ετοιμάζω παρουσίαση"
    r"(γράφω|ετοιμάζω|κάνω) (μια |μία )?(εργασία|άρθρο|διατριβή|διπλωματική|μυθιστόρημα|"
    r"παρουσίαση|ιστορία)|"
    # "في مسلسل شاهدته" (in a series I watched), "شاهدت فيلما", "قرأت مقالا"
    r"(?:في|من) (?:مسلسل|فيلم|برنامج|رواية|مقال|فيديو|بودكاست) (?:شاهدته|رأيته|قرأته|سمعته)|"
    r"(?:شاهدت|رأيت|قرأت|سمعت) (?:مسلسلا?|فيلما?|برنامجا?|مقالا?|فيديو|بودكاست)|"
    r"(उपन्यास|कहानी|लेख|किताब) लिख (रहा|रही)|"
    r"\bscriu (?:o|un) (?:povestire|poveste|roman|nuvel[ăa]|articol|eseu|scenariu|lucrare)|"
    # a policy written for an employer: "Ik moet als HR-adviseur een beleid schrijven over ..."
    r"\b(?:write|writing|draft|drafting|schrijven|schrijf|escribir|redactar|r[ée]diger|[ée]crire|"
    r"schreiben|scrivere|redigere)\b[^.!?\n]{0,30}\b(?:policy|policies|beleid|pol[ií]tica|"
    r"politique|richtlinie\w*|guidelines?|protocol|protocolo|protocole)\b|"
    r"\b(?:beleid|richtlijn|protocol)\s+(?:schrijven|opstellen)\b|"
    r"(?:ポッドキャスト|番組|記事|小説|ドラマ|映画|ニュース|動画)(?:で|の)(?:扱|取り上げ|紹介)|"
    r"voor (mijn|een) (spreekbeurt|werkstuk|presentatie)\b|"
    r"(saw|read|came across|watched|watching|listening to|heard) (a|an|this|that|the|some) "
    r"(post|article|thread|tweet|video|reel|tiktok|documentary|show|programme|program|"
    r"episode|series|film|movie|podcast|news (story|item|piece))|"
    r"(we|they|someone|people) (talked|were talking|discussed|were discussing|argued) "
    r"(about )?(it|this|that)\b|just curious|out of curiosity|purely hypothetical|"
    r"(a|the|my) (main )?character (in|of)\b|"
    # Spanish, Portuguese, French, Italian
    r"pregunto (por|para) (un|una|mi)\b|por curiosidad|por curiosidade|"
    # "Es para una amiga que ...", "é para um amigo": asked for a friend
    r"\b(?:es|lo pregunto|pregunto|[eé]|pergunto) (?:para|pra|por) (?:un|una|um|uma|mi|meu|minha) "
    r"(?:amig[oa]|compañer[oa]|colega|conocid[oa]|vecin[oa]|herman[oa]|prim[oa]|irm[ãa]o?|"
    r"vizinh[oa])\b|"
    # "because of a documentary I watched", "from an article I read"
    r"(?:because of|from|after|in) (?:a|an|this|that|the) (?:post|article|thread|video|"
    r"documentary|show|programme|program|episode|series|film|movie|podcast)s? (?:i|we) "
    r"(?:watched|saw|read|heard|listened to)\b|"
    r"(es|lo pregunto|pergunto) para (un|una|um|uma|mi|meu|minha) (art[ií]culo|blog|trabajo|"
    r"trabalho|clase|aula|libro|livro|novela|romance)|"
    r"(el|la|a|o|un|una|um|uma) (personaje|personagem)\b|"
    r"(libro|livro|novela|romance|hist[oó]ria) que (estoy|estou) (escribiendo|escrevendo)|"
    r"(vi|le[ií]|li|estoy viendo|estou vendo) (un|una|um|uma) (post|art[ií]culo|artigo|"
    r"v[ií]deo|publicaci[oó]n|reportaje|reportagem|programa|document[aá]rio|serie|s[eé]rie)|"
    r"je (demande|pose la question) pour (un|une|mon|ma)\b|par curiosit[ée]|"
    r"c'est pour (un|une|mon|ma) (coll[èe]gue|ami|amie|pote|voisin|voisine|cousin|cousine|"
    r"fr[èe]re|s[œo]e?ur|m[èe]re|p[èe]re|fils|fille)\b|"
    r"(?:đang )?vi[ếe]t (?:truy[ệe]n|ti[ểe]u thuy[ếe]t|k[ịi]ch b[ảa]n|b[àa]i)|nh[âa]n v[ậa]t|"
    r"(le|la|un|une|mon|ma) personnage\b|"
    r"(j'ai vu|j'ai lu|je regarde|je lis) (un|une) (post|article|vid[ée]o|reportage|"
    r"[ée]mission|documentaire|s[ée]rie)|"
    r"(?:\bje (?:fais|prépare|rédige|écris)|\bj'(?:écris|ecris)) (un|une|mon|ma) (exposé|article|"
    r"mémoire|dissertation|"
    r"roman|livre|blog|dossier|reportage)|pour (mon|ma|un|une) (exposé|mémoire|cours|master|"
    r"thèse|article|reportage|livre|roman|blog|podcast|dossier)\b|"
    r"γράφω (ένα|μια|μία) (άρθρο|βιβλίο|εργασία|ιστορία|μυθιστόρημα|blog)|"
    r"(estoy haciendo|hago|preparo|escribo) (un|una|mi) (trabajo|ensayo|tesis|art[ií]culo|"
    r"reportaje|tfg|tfm)|(estou fazendo|fa[cç]o|preparo|escrevo) (um|uma|o meu|a minha) "
    r"(trabalho|ensaio|tese|artigo|tcc|reportagem)|(sto (scrivendo|facendo|preparando)|"
    r"scrivo|preparo) (un|una|la mia|il mio) (tesina|tesi|articolo|relazione|ricerca|romanzo)|"
    r"ich (schreibe|mache|bereite) (einen|eine|ein|meine|mein) (artikel|hausarbeit|referat|"
    r"bachelorarbeit|masterarbeit|roman|blogpost|vortrag)|"
    r"chiedo per (un|una|il mio|la mia)\b|per curiosit[aà]|(il|un|del|nel) personaggio\b|"
    r"(?<![^\W\d_])(?:è|e') per (?:un|una|il mio|la mia) (?:amic[oa]|collega|conoscente|parente|"
    r"cugin[oa]|vicin[oa]|fratello|sorella)\b|"
    r"belgesel (?:izledim|izliyordum)|(?:haber|makale|yaz[ıi]) okudum|merak ettim|"
    r"(ho visto|ho letto|sto guardando) (un|una) (post|articolo|video|servizio|programma|"
    r"documentario|serie)|"
    # German, Dutch, Swedish, Polish
    r"frage f[üu]r (einen|eine|meinen|meine)\b|aus neugier|(die|eine|meine) figur\b|"
    r"f[üu]r (einen|meinen|ein|mein) (artikel|blog|roman|buch|referat|kurs|unterricht)\b|"
    # ... or for the publication the user writes for: "Für unseren Verbraucher-Newsletter"
    r"f[üu]r (unseren|unsere|unser|meinen|meine|mein|den|die|das) ([\w]+-)?(newsletter|"
    r"artikel|blog|podcast|zeitschrift|magazin|kolumne|beitrag|zeitung|ratgeber)\b|"
    r"para (nuestro|nuestra|mi) (bolet[ií]n|newsletter|revista|columna|blog|podcast)\b|"
    r"pour (notre|ma|mon) (newsletter|lettre d'information|revue|chronique|blog|podcast)\b|"
    r"(habe|hab) (einen|eine|ein) (post|artikel|beitrag|video|doku|sendung|bericht) "
    r"(gesehen|gelesen)|"
    r"vraag (het )?voor een\b|uit nieuwsgierigheid|(het|een) personage\b|"
    r"fr[åa]gar (f[öo]r|[åa]t) (en|min|mitt)\b|av nyfikenhet|"
    r"(vi|de|n[åa]gon) (pratade|diskuterade|snackade) om (det|detta|s[åa]nt)\b|"
    r"(s[åa]g|l[äa]ste) (ett|en) (inl[äa]gg|artikel|klipp|program|dokument[äa]r)|"
    r"pytam (dla|za|w imieniu) (kolegi|kole[żz]anki|znajom\w+|przyjaci\w+|siostry|brata)|"
    r"z ciekawo[śs]ci|"
    # Russian, Ukrainian, Greek, Turkish, Indonesian, Vietnamese
    r"спрашиваю (для|за|от имени) \w+|просто интересно|из любопытства|"
    r"(для|в) (стать\w+|блог\w*|книг\w+|роман\w*|курсов\w+|реферат\w*|диплом\w*)\b|"
    r"(видел|видела|читал|читала|смотрю|смотрел|смотрела) (пост|стать\w+|передач\w+|видео|"
    r"ролик|сериал|фильм|программ\w+)|персонаж\w*|"
    r"питаю (для|за) \w+|просто цікаво|"
    r"ρωτ[άa]ω για (έναν|ένα|μια|μία|τον|την)\b|από περιέργεια|"
    r"(arkada[şs][ıi]m|bir arkada[şs]) i[çc]in soruyorum|sadece merak ettim|"
    # "Kuzenim soruyor": my cousin asks (not "soruyorum", I ask)
    r"\b\w+(?:ım|im|um|üm) (?:soruyor|sordu|merak ediyor)\b|"
    # a case for a course: "Es para entender un caso práctico del curso", "pour un cours",
    # "für einen Kurs", "per il corso", "para a aula"
    r"caso pr[áa]ctico|estudo de caso|cas pratique|caso pratico|fallbeispiel|fallstudie|"
    r"\b(?:para|por) (?:un|una|el|la|mi|mis) (?:clase|curso|examen|tarea|trabajo de clase|"
    r"asignatura)\b|del curso de\b|pour (?:un|le|mon) (?:cours|examen|devoir)\b|"
    r"per (?:il|un|mio) (?:corso|esame|compito)\b|"
    r"f[üu]r (?:einen|den|meinen) (?:kurs|unterricht)\b|"
    r"para (?:a|uma) (?:aula|disciplina|prova)\b|"
    # a thesis or an article in Vietnamese: "Mình đang viết luận văn về chính sách di cư"
    r"lu[ậa]n v[ăa]n|lu[ậa]n [áa]n|kh[óo]a lu[ậa]n|"
    # "Ablam için soruyorum": for my sister (not "kendim için", for myself)
    r"(?!kendim\b)\w+m i[çc]in (soruyorum|sordum|araştırıyorum)|"
    # a documentary the user makes or watches: "phim tài liệu về ...", "un documental sobre"
    r"documentar(y|ies)|documental|document[áa]rio|documentaire|documentario|"
    r"dokumentarfilm\w*|dokumentär\w*|dokumentalny\w*|belgesel\w*|phim t[àa]i li[ệe]u|"
    r"film dokumenter|документальн\w*|"
    r"(tanya|nanya) (untuk|buat) (teman|kawan|saudara)|(cuma|hanya|sekadar) penasaran|"
    r"h[ỏo]i (gi[uù]m|cho|h[ộo]) (b[ạa]n|ng[ưu][ờo]i)|(chỉ|chi) t[òo] m[òo])|"
    # Hebrew, Arabic, Hindi
    r"שואל(ת)? בשביל|מתוך סקרנות|סתם מסקרן|בשביל (כתבה|מאמר|בלוג|ספר)|הדמות|"
    r"أسأل (عن|ل)\S*(صديق|زميل)|من باب الفضول|الشخصية|"
    r"दोस्त के लिए पूछ|"
    # Chinese, Japanese, Korean
    r"[帮替代](朋友|同事|同学|同學|亲戚|親戚|家人|别人|別人)问|在写(小说|小說|文章|博客|论文|論文|剧本|劇本)|"
    r"(为|為)(一篇)?(文章|博客|小说|小說)|(刷到|看到|看了|读到|讀到)(一个|一個|一篇|个|個)?"
    r"(帖子|文章|视频|視頻|新闻|新聞|节目|節目)|在看(一个|一個|个|個)?\S{0,6}(节目|節目|剧|劇|纪录片|紀錄片)|"
    # (not "我很好奇，我这个糖尿病…": the user's own question, asked out of curiosity)
    r"(只是|纯粹|純粹)好奇|随便问问|隨便問問|"
    r"(小说|小說|书|書|剧|劇|故事|游戏|遊戲|电影|電影)(里|裡|中)?的?(角色|人物|主角)|"
    r"友(達|人)に(聞かれ|頼まれ)|(記事|ブログ|小説)を書いて|好奇心|登場人物|キャラクター|"
    r"(記事|投稿|番組|動画)を(見|読)|"
    r"친구(가|한테|를 위해|대신)|(기사|블로그|소설)(을|를)?\s*쓰|궁금해서|등장인물|캐릭터|"
    r"(기사|영상|방송|프로그램)(을|를)\s*(보|봤)|"
    # someone else asked, or the user asks because of someone: "asking bc a friend of mine
    # just got an offer", "a friend asked", "un amigo me preguntó", "kamarád se ptal",
    # "เพื่อนฝากถามมา", "朋友让我问"
    rf"\b(?:asking (?:bc|b/c|because|cause|'cause|cuz|coz|cos|since) (?:a|my) {_OTHER_EN}|"
    # (not "my wife asked me to tell you I'm allergic to ...": a message passed on)
    rf"(?:a|my) {_OTHER_EN}(?: of mine)? (?:asked|was asking|is asking|wants to know|"
    r"wanted to know)(?: me)?(?=\s*(?:[.,;:!?—–-]|$)|\s+(?:whether|if|what|how|where|when|"
    r"which|about|to ask|to find out|to check)\b)|on behalf of (?:a|my)|"
    r"(?:un|una|mi) (?:amig[oa]|compañer[oa]|colega|herman[oa]|prim[oa]|vecin[oa]) me "
    r"pregunt[óo]|me lo pregunt[óo] (?:un|una|mi)|"
    r"(?:um|uma|meu|minha) (?:amig[oa]|colega|irm[ãa]o?|prim[oa]|vizinh[oa]) (?:me )?"
    r"(?:perguntou|quer saber)|pergunto (?:por|pra|para) (?:um|uma|meu|minha)|"
    r"(?:un|une|mon|ma) (?:ami|amie|pote|coll[èe]gue|cousin|cousine|voisin|voisine|fr[èe]re|"
    r"s[œo]e?ur)(?: (?-i:[A-Z])\w+)? (?:m'a demand[ée]|veut savoir|se demande|demande)|"
    r"(?:ein|eine|mein|meine) (?:freund|freundin|kumpel|kollege|kollegin|bekannte[r]?|"
    r"schwester|bruder|nachbarin|nachbar) (?:hat mich gefragt|hat gefragt|fragt|will wissen|"
    r"wollte wissen)|"
    r"(?:un|una|il mio|la mia) (?:amic[oa]|collega|cugin[oa]|vicin[oa]|fratello|sorella) "
    r"(?:mi ha chiesto(?! di)|chiede(?! di)|vuole sapere)|chiedo per conto d|"
    r"(?:een|mijn) (?:vriend|vriendin|collega|kennis|buurman|buurvrouw|broer|zus) "
    r"(?:vroeg|vraagt|wil weten)|"
    # someone the user teaches or serves: "Een leerling van mij wil ...", "a student of mine"
    r"(?:een|mijn) (?:leerling|student|studente|cli[ëe]nt|pati[ëe]nt|klant)(?: van mij)?\b|"
    r"\ba (?:student|pupil|client|patient) of mine\b|"
    # asked for someone, said after: "It's for my friend Tom", "this is for my sister"
    rf"\b(?:it'?s|this is|that'?s) for (?:a|my) {_OTHER_EN}\b|"
    # something read in the news: "Đọc báo thấy ... nên tò mò"
    r"đọc báo|xem báo|nên tò mò|"
    # (a name may follow: "Min kompis Elin undrar ...")
    r"(?:en|min) (?:kompis|v[äa]n|kollega|granne|bror|syster)(?: (?-i:[A-ZÅÄÖ])\w+)? "
    r"(?:fr[åa]gade|undrar|vill veta)|"
    r"(?:kolega|kole[żz]anka|znajom\w+|przyjaci\w+|brat|siostra|s[ąa]siad\w*) "
    r"(?:pyta[łl]\w*|pyta|chce wiedzie[ćc])|"
    r"pt[áa]m se (?:za|pro) \w+|(?:kamar[áa]d\w*|kolega|kolegyn\w+|zn[áa]m[ýáa]) se "
    r"pt(?:al|ala|á)|p[ýy]tam sa za|"
    r"(?:arkada[şs][ıi]m|bir arkada[şs][ıi]m) (?:sordu|soruyor|merak ediyor)|"
    r"teman(?:ku| saya| aku)? (?:nanya|bertanya|tanya|minta ditanyakan)|titipan teman|"
    r"b[ạa]n (?:t[ôo]i|m[ìi]nh) (?:h[ỏo]i|nh[ờo] h[ỏo]i)|h[ỏo]i gi[ùu]m|h[ỏo]i h[ộo]|"
    r"(?:друг|подруга|знаком(?:ый|ая)|коллега|брат|сестра) (?:спросил\w*|спрашивает|"
    r"просил\w* спросить)|(?:друг|подруга|знайом(?:ий|а)|колега) (?:запита\w*|пита\w*|"
    r"просив\w*)|"
    # ... or for school: "Píšu seminárku z pracovního práva", "pishu referat", "ödevim için"
    r"(?:writing|doing) (?:a|an|my) (?:term paper|seminar paper|school report|coursework|"
    r"dissertation)|"
    r"p[íi][šs]u (?:seminárku|seminarku|seminární|seminarni|referát|referat|esej|článek|"
    r"clanek|diplomku|bakalářku|bakalarku|diplomovou|bakalářskou|bakalarskou|práci|praci|"
    r"úkol|ukol)|p[íi][šs]em (?:seminárku|referát|esej|článok|prácu)|"
    r"pisz[eę] (?:prac[eę] (?:zaliczeniow|dyplomow|magistersk|licencjack|semestraln)\w*|"
    r"referat|wypracowanie|esej|artyku[łl]|powie[śs][ćc]|opowiadanie|ksi[ąa][żz]k[eę]|scenariusz)|"
    r"\b(?:bohater\w*|posta[ćc] (?:w|z) )|"
    r"пишу (?:реферат|курсов\w+|диплом\w*|эссе|есе|стать\w+|доклад|доповід\w+)|"
    r"(?:[öo]devim|[öo]dev|tezim|makalem) i[çc]in|(?:makale|tez|[öo]dev) yaz[ıi]yorum|"
    r"(?:lagi|sedang) (?:nulis|menulis|bikin|membuat) (?:makalah|skripsi|tugas|artikel|esai)|"
    r"untuk tugas (?:sekolah|kuliah)|(?:vi[ếe]t|l[àa]m) (?:b[àa]i lu[ậa]n|ti[ểe]u lu[ậa]n|"
    r"b[àa]i t[ậa]p)|"
    r"pour (?:un|mon) devoir\b|f[üu]r (?:ein|mein) referat\b|per (?:una|la mia) tesina\b|"
    r"voor (?:mijn scriptie|een werkstuk|mijn werkstuk)\b|"
    r"(?:skriver|g[öo]r) (?:en|ett|min|mitt) (?:uppsats|arbete|rapport|examensarbete|artikel|"
    r"artikkel|bok|bog|roman|novell|krönika|kronika|reportage|avhandling|essä|essay|"
    r"blogginlägg|blogginnlegg)|"
    r"(?:schrijf|maak) (?:een|mijn) (?:werkstuk|scriptie|essay|verslag|paper))|"
    r"เพื่อน\S{0,6}ถาม|ถาม(?:ให้|แทน|เผื่อ)เพื่อน|(?:ทำ|เขียน)(?:รายงาน|การบ้าน|เรียงความ)|"
    r"(?:ดู|อ่าน)(?:สารคดี|ข่าว|บทความ|คลิป|ซีรีส์|ละคร)|(?:อยากรู้|สงสัย)เฉยๆ|"
    r"朋友(?:问|問|让我问|讓我問|托我问|託我問|叫我问|叫我問)|"
    r"(?:写|寫)(?:论文|論文|作业|作業|报告|報告)|友達から聞かれ|(?:レポート|論文)を書いて|"
    r"친구(?:가|한테|가 나한테) (?:물어|부탁)|(?:과제|리포트|레포트|논문)(?:를|을)? ?쓰|"
    r"दोस्त ने पूछा|निबंध लिख|صديق\S* (?:سأل|يسأل)|أكتب (?:بحث|مقال)|"
    # Turkish: "sunumum için" (for my presentation), "ödevim için"; Ukrainian and Russian: a
    # podcast, an article, a talk prepared; Swahili: "naandaa somo" (I'm preparing a lesson)
    r"(?:sunumum|ödevim|odevim|makalem|tezim|projem|dersim|konuşmam)\s+için|"
    r"(?:готую|готуємо|готовлю|пишу)\s+(?:випуск|подкаст|статт|доповід|репортаж|выпуск|"
    r"стать|доклад)\w*|"
    r"\b(?:naandaa|ninaandaa|ninaandika|naandika)\s+(?:somo|makala|wasilisho|insha|ripoti)|"
    # Persian: "برای مقالهٔ دانشگاهی‌ام" (for my university paper), a thesis, a research project
    r"برای\s+(?:مقال\S*|پایان[\u200c ]?نامه\S*|تحقیق\S*|پروژه\S*|تکلیف\S*)",
    _I,
)


def _asked_for_others(text: str) -> bool:
    return _ASKED_FOR_OTHERS.search(text) is not None


def _own_statements(sentence: str) -> list[str]:
    """The clauses of a sentence asked for others that state something in the first person
    ("I'm 30 weeks pregnant" before "is flying safe?"): not its question, not its reason."""
    clauses = _CLAUSE_BREAK.split(sentence)
    if sentence.rstrip().endswith(("?", "？", "؟")):
        clauses = clauses[:-1]
    return [
        c
        for c in clauses
        if _first_person(c)
        and not _asked_for_others(c)
        and not _ASKS.match(c)
        and not _about_someone_else(c)
    ]


# A claim whose subject is the user ("User is pregnant.", "用户离婚了"), not the user's
# relative ("User's husband is diabetic", "Sister Ana lives in Porto").
# Someone of the user's in Hindi, after "उपयोगकर्ता के/की/का": parents, partner, children,
# siblings, friends, relatives.
_HI_RELATIVE = (
    r"(?:पापा|पिता|पिताजी|माँ|मां|माता|मम्मी|पति|पत्नी|बेटा|बेटे|बेटी|भाई|बहन|दोस्त|सहेली|दादा|दादी|"
    r"नाना|नानी|चाचा|चाची|मामा|मामी|बुआ|मौसी|कज़िन|कजिन|बच्च\S*|बॉस|पड़ोसी|ससुर|सास|"
    r"परिवार|रिश्तेदार)"
)
_ABOUT_USER = compile_cached(
    r"^\W*(the\s+|ο\s+|η\s+|az?\s+(?=felhaszn))?(user|usuari[oa]|utilisat(eur|rice)|nutzer(in)?|benutzer(in)?|utente|usuário|"
    r"användaren|gebruiker|użytkownik\w*|użytkowniczk\w*|kullanıcı|pengguna|người dùng|उपयोगकर्ता|"
    r"المستخدمة?|"
    r"пользовател\w*|χρήστης|χρήστρια|"
    # Czech, Slovak, Finnish, Danish, Norwegian, Hungarian, Romanian, Ukrainian, Croatian,
    # Bulgarian, Persian: "Uživatel je členem odborů"
    r"uživatel(?:ka)?|používateľ(?:ka)?|käyttäjä|brugeren|brukeren|felhasználó|"
    # (no \b: a Devanagari word ends on a vowel sign, which is no word character)
    r"utilizator(?:ul|ea)?|utilizatoare(?:a)?|користувач\w*|korisni(?:k|ca)|потребител\w*|کاربر|ব্যবহারকারী)"
    # (not "उपयोगकर्ता के पापा", the user's dad: someone of theirs, in Hindi)
    rf"(?![\w\u0900-\u0dff])(?!'s|’s|\s+(?:के|की|का)\s+{_HI_RELATIVE})"
    # (nor "A felhasználó barátja", the user's friend: Hungarian marks the one possessed)
    r"(?!\s+(?:barátja|barátnője|barátai|anyja|anyukája|apja|apukája|férje|felesége|fia|lánya|"
    r"testvére|nővére|bátyja|öccse|húga|kollégája|szomszédja|főnöke|nagybátyja|nagynénje|"
    r"unokája|párja|gyereke|gyermeke|gyerekei|nagymamája|nagyapja|ügyfele|ismerőse)\b)|"
    # (not "用户父亲", "用户的妈妈": someone of the user's)
    r"^\W*המשתמש(ת)?(?!\S)|^\W*(用户|用戶|使用者|ユーザー|사용자|ผู้ใช้)(?!的|の|의|ของ)"
    r"(?!父|母|爸|妈|媽|妻|丈夫|老公|老婆|儿|兒|女儿|女兒|哥|姐|弟|妹|朋友|同事|孩子|家人|奶奶|爷爷|爺爺|"
    r"外婆|外公|岳|婆婆|公公|男友|女友|男朋友|女朋友|老板|老闆|邻居|鄰居)|"
    # "У пользователя есть ...", "यूज़र ... हैं", "यूजर": the user as the one who has it
    r"^\W*у пользовател(я|ьницы)\b|^\W*у користувач(а|ки)\b|^\W*mtumiaji\b|"
    rf"^\W*(यूज़र|यूजर)(?!\S)(?!\s+(?:के|की|का)\s+{_HI_RELATIVE})|"
    r"^\W*(el|la|l'|der|die|o|a)\s*"
    r"(usuari[oa]|usuári[oa]|utilisat(eur|rice)|nutzer(in)?|usuário|utente)\b|"
    # a note with no subject is the user's: "Har skyddad identitet ...", "Lives in Tbilisi"
    r"^\W*(is|has|was|lives|works|earns|takes|suffers|recently|currently|har|är|bor|arbetar|"
    r"jobbar|hat|ist|wohnt|arbeitet|tiene|está|vive|trabaja|habite|travaille|tem|mora|"
    r"trabalha|abita|lavora|heeft|woont|werkt|jest|mieszka|pracuje|имеет|живёт|живет|"
    r"работает|является|уехал\w*|переехал\w*)\b",
    re.IGNORECASE,
)


# Someone else anywhere in a clause: a person a story is about ("a podcast about a guy who
# lost $8k"), a role-play or a film's hero ("I vores rollespil er min karakter Frode ...",
# "yung bida may depression").
_A_PERSON_IN_A_STORY = compile_cached(
    r"\b(?:about|of|on)\s+(?:a|an|the|this|that|some)\s+(?:[^\W\d_]+\s+)?(?:guy|man|woman|girl|"
    r"boy|person|lady|dude|bloke|couple|family|kid|teenager|teen|mother|father|mom|dad|"
    r"character|patient)\s+(?:who|that|whose|with)\b|"
    r"\b(?:role-?play|rollespil|rollespill|rollspel|rollenspiel|juego de rol|jeu de r[ôo]le|"
    r"gioco di ruolo|rpg)\b|\b(?:yung|ang)\s+bida\b|\bprotagonist\w*|\bprotagonista\b|"
    r"主角|主人公|ตัวละคร|nhân vật chính|"
    # a story about someone: "o povestire despre un bărbat", "un cuento sobre una mujer"
    r"\b(?:povestire|poveste|nuvel[ăa]|cuento|relato|histoire|nouvelle|racconto|"
    r"geschichte|erz[äa]hlung|opowiadanie|рассказ|историю|verhaal)\s+(?:despre|sobre|sur|su|"
    r"[üu]ber|o|о|про|over)\b|"
    # an example's person: "με παράδειγμα οφειλέτη με 85.000€ χρέη", "for example a family"
    r"παράδειγμα|\bfor example,? (?:a|an|some)\s|\bpor ejemplo,? (?:un|una)\s|"
    r"\bpar exemple,? (?:un|une)\s|\bzum beispiel,? (?:ein|eine)\s|"
    # Japanese "a person who ...": "2016年に窃盗で執行猶予がついた人は"
    r"(?:た|る|ている|てる|ない)人(?:は|が|も|の)",
    _I,
)


def _about_someone_else(clause: str) -> bool:
    if _HYPOTHETICAL.search(clause) or _A_PERSON_IN_A_STORY.search(clause):
        return True
    match = _SOMEONE_ELSE.search(clause)
    if match is None:
        return False
    if _SOMEONE_DID_IT_TO_ME.match(clause):
        return False  # "Someone impersonating our CFO emailed me ...": what befell the user
    return not _AND_I.search(clause[match.end() : match.end() + 20])


# Someone unnamed who did something to the user: a statement of the user's ("Someone
# impersonating our CFO emailed me asking me to buy $2,000 in gift cards"), not "if someone
# has debts ..." nor "someone I know has ...".
_SOMEONE_DID_IT_TO_ME = compile_cached(
    r"^\W*(?:someone|somebody)\b(?![^.!?\n]{0,12}\bI\b)[^.!?\n]{0,60}?\b(?:\w+ed|sent|sold|"
    r"stole|took|called|rang|texted|told|asked)\s+(?:me|my|us|our)\b",
    _I,
)


# A verb in the first person, the pronoun left out ("..., tengo diabetes desde 2019", "...,
# ho un'ernia", "..., mam cukrzycę"): the user speaks of themselves again.
_FIRST_PERSON_VERB = compile_cached(
    r"\b(?:tengo|estoy|soy|sufro|padezco|tomo|vivo|trabajo|tenho|estou|sou|sofro|moro|"
    r"trabalho|ho|sono|soffro|prendo|abito|lavoro|habe|bin|leide|nehme|wohne|arbeite|ai|suis|"
    r"souffre|prends|habite|travaille|heb|ben|lijd|neem|woon|werk|mam|jestem|choruj[ęe]|"
    r"bior[ęe]|mieszkam|pracuj[ęe]|страдаю|принимаю|живу|работаю|болею|lider|jobbar)\b",
    _I,
)


def _mine_only(sentence: str) -> str:
    """``sentence`` without its clauses about someone else (separators kept: "1,450 EUR"),
    nor the clauses after one that name no one anew: they go on about that person ("我妈最近
    总是失眠，情绪也很低落，医生说可能是抑郁症", "My son has an assignment: a family with
    45,000 € of debt") until one speaks in the first person ("..., and I have it too")."""
    parts = re.split(r"((?:[,;:¿，；：、]\s*|\s+(?=but\b)|\s+[—–]\s+))", sentence)
    if not any(_about_someone_else(p) for p in parts[::2]):
        return sentence
    kept: list[str] = []
    theirs = False
    for part in parts[::2]:
        if _about_someone_else(part):
            theirs = True
        elif not theirs or _first_person(part) or _FIRST_PERSON_VERB.search(part):
            theirs = False
            kept.append(part)
    if any(_OWNS_ASKED.search(part) for part in kept):
        # "My sister has type 1 diabetes, and I was diagnosed with it too", "我妈有糖尿病，我也
        # 有": the user has what the other clause names
        return sentence
    return " ".join(kept)


# A clause that opens with a question word is the question's own ("Hur fungerar snabblån
# egentligen, och varför avråder alla från dem?"), not a statement before it.
_ASKS = compile_cached(
    r"^\W*(how|what|why|when|where|which|who|"
    r"wie|warum|wann|wo|welche\w*|c[oó]mo|qu[eé]|por qu[eé]|cu[aá]ndo|d[oó]nde|cu[aá]l\w*|"
    r"comment|pourquoi|quand|o[uù]|quel\w*|est-ce que|come|perch[eé]|quando|dove|qual\w*|"
    r"hur|varf[öo]r|n[äa]r|var|vilk\w*|hoe|waarom|wanneer|waar|welk\w*|jak|dlaczego|kiedy|"
    r"gdzie|как|почему|зачем|когда|где|какой|какая|какие|nasıl|neden|bagaimana|mengapa|kenapa|"
    r"how much|how many|quanto|quanta|quantos|quantas|cu[aá]nto|cu[aá]nta|cu[aá]ntos|combien|"
    r"wie viel\w*|wieviel\w*|hoeveel|hur mycket|hur många|ile|сколько|скільки|πόσο|πόσα|"
    r"ilu|ile kosztuje|berapa|як|чому|коли|де|який|яка|які|скільки)\b",
    re.IGNORECASE,
)


# A clause of a CJK question that holds its question word ("うつ病の診断ってどこで、どうやって
# 受けるの？", "抑郁症在哪里看，怎么挂号？"): the question's, however the sentence is cut.
_CJK_ASKS = compile_cached(
    r"どこ|どう|なに|何を|何が|いつ|誰|なぜ|どれ|いくら|哪|什么|什麼|怎么|怎麼|为什么|為什麼|多少|谁|"
    r"어디|어떻게|뭐|무엇|언제|누구|왜|얼마"
)


def _statements(context: Sequence[dict[str, Any]], about_user: bool = False) -> str:
    """What the user said, without the questions and the requests that do not speak of the
    user; for a claim ``about_user``, without what the user said of someone else ("my friend
    is pregnant" does not ground "User is pregnant")."""
    kept = []
    said = user_texts(context)
    for number, text in enumerate([*said, *confirmed_questions(context)]):
        for_others = about_user and _asked_for_others(text)
        asked: list[str] = []  # the questions of this message that speak of no one
        owns_asked = False
        after_question = False
        for sentence in _SENTENCE_END.split(text):
            # (a question the user said yes to is a statement: "是因为抑郁症去复诊吗" "对")
            sentence = _as_question(sentence) if number < len(said) else sentence
            if _topic_request(sentence):
                continue
            if for_others:
                kept += _own_statements(sentence)
                continue
            if about_user and _MADE_UP.search(sentence):
                continue
            was_after_question = after_question
            after_question = sentence.rstrip().endswith(("?", "？", "؟"))
            if was_after_question and _EXAMPLE.match(sentence):
                # the question's case, said after it: "What's parental leave like at big
                # tech companies? Say, somewhere like Northwind Systems."
                asked.append(sentence)
                continue
            if not sentence.rstrip().endswith(("?", "？", "؟")):
                kept.append(_mine_only(sentence) if about_user else sentence)
                owns_asked = owns_asked or _owns_asked(sentence)
                continue
            *before, question = _CLAUSE_BREAK.split(sentence)
            question = _IMPERSONAL_QUESTION.sub(" ", question)
            stated = [
                c
                for c in before
                if not (about_user and _about_someone_else(c))
                and not _ASKS.match(c)
                and not _CJK_ASKS.search(c)
            ]
            kept += stated
            owns_asked = owns_asked or any(_owns_asked(c) for c in stated)
            # (a request after a clause is a request still: "... - can you list which
            # treatments are covered?")
            if (
                _first_person(question)
                and not _topic_request(question)
                and not (about_user and _HYPOTHETICAL.search(question))
            ):
                kept.append(question)
            else:
                asked.append(question)
        if owns_asked:
            # "Any tips for managing bipolar II? I was diagnosed two years ago": the user's
            # statement is of what the question named, which it does not repeat
            kept += asked
    # each kept piece its own unit: a clause before a question is a statement of its own
    return "\n".join(kept)


# A statement in the first person that has, or was diagnosed with, what it does not name:
# the topic of the user's question beside it ("I was diagnosed two years ago", "I have it
# too", "me lo diagnosticaron", "bei mir wurde es festgestellt", "我两年前确诊了"). A
# diagnosis with its own object ("I was diagnosed with ADHD") names something else.
_OWNS_ASKED = compile_cached(
    r"\bi(?:'m| am| was| were|'ve| have| had| got)?(?: been| just| recently| finally| also|"
    r" officially| only)*(?: got)? diagnosed\b(?!\s+(?:with|as|having)\s+(?!it\b|this\b|that\b))|"
    r"\bi(?:'ve| have)? (?:got |had |lived with |suffered from |struggled with |dealt with )?"
    r"(?:have|had|got|live with|suffer from|struggle with|deal with)? ?(?:it|this|that)"
    r"(?: too| myself| as well| also)?(?:\s*(?:[.,;!—–-]|$)| since\b| for (?:years|\d+))|"
    r"\bmy diagnosis\b|"
    r"\b(?:me (?:lo |la )?diagnosticaron|fui diagnosticad[oa]|(?:yo )?(?:lo|la) (?:tengo|padezco)|"
    r"me diagnosticaram|tenho isso|sofro disso|recebi o diagn[óo]stico|tenho (?:desde|há)|"
    r"(?:on )?m'a (?:été )?diagnostiqu\w*|j'ai été diagnostiqu\w*|j'en souffre|"
    r"je l'ai (?:aussi|depuis|moi aussi)|"
    r"(?:bei mir|mir) wurde (?:es |das |sie |er )?\S*\s?\S*\s?(?:diagnostiziert|festgestellt)|"
    r"ich leide (?:daran|darunter)|ich habe (?:es|das|sie|ihn) (?:auch|selbst|seit)|"
    r"mi (?:è|e) stat[oa] diagnosticat[oa]|mi hanno diagnosticato|sono stat[oa] "
    r"diagnosticat[oa]|ce l'ho|ne soffro|ik (?:ben|werd) gediagnosticeerd|bij mij (?:is|werd) "
    r"(?:het )?vastgesteld|ik heb het (?:ook|zelf|al|sinds)|ik lijd eraan|"
    r"jag (?:fick|har fått) diagnosen|jag diagnostiserades|jag har det (?:också|själv|sedan)|"
    r"zdiagnozowano (?:u mnie|mi)|choruj[eę] na to|cierpi[eę] na to|mam (?:to|j[ąa]|go) od|"
    r"diagnostikovali mi|m[áa]m (?:to|ji|ho) (?:taky|tak[ée]|od|už|uz)|trp[íi]m (?:t[íi]m|j[íi])|"
    r"мне (?:поставили диагноз|диагностировали)|"
    r"у меня (?:его|её|ее|это|он|она) (?:диагностировали|нашли|тоже|уже|с)|"
    r"я этим (?:страдаю|болею)|мені (?:поставили діагноз|діагностували)|"
    r"bana (?:te[şs]his|tan[ıi]) kon\w*|bende de var|(?:saya|aku) (?:di)?didiagnosis|divonis|"
    r"t[ôo]i (?:đã )?(?:được|bị) chẩn đoán)\b|"
    r"我[^，。？！,.?!]{0,8}(?:诊断|確診|确诊|診斷)(?:了|过|過|出来了|出來了)?(?=[，。！,.!\s]|$)|"
    r"我也有|(?<!と)診断(?:され|を受け)|진단(?:을)? ?받|"
    r"(?:ผม|ฉัน|หนู)\S{0,12}(?:ถูก)?วินิจฉัย|אובחנתי|تم تشخيصي|διαγνώστηκα",
    _I,
)


def _owns_asked(sentence: str) -> bool:
    """Does the user say they have what they asked about ("I was diagnosed last year"), not
    that someone else does ("엄마가 진단받았어요", "我妈妈确诊了")?"""
    return any(
        _OWNS_ASKED.search(c) and not _about_someone_else(c) for c in _OWN_CLAUSE.split(sentence)
    )


_OWN_CLAUSE = compile_cached(rf"[,;，；]\s*|{FROM_RUN_START}\s+(?:and|but)\s+", _I)


# A yes that opens the user's answer: "Yes.", "Ja, ...", "Sí", "对的", "네", "はい".
_YES = compile_cached(
    r"\W*(yes|yeah|yep|yup|correct|right|exactly|ja|jawohl|genau|sí|si|sì|oui|exact|sim|tak|"
    r"да|ага|evet|jo|ναι|ano|igen|kyllä|joo|ya|iya|vâng|đúng|हाँ|हां)(?![^\W\d_])|"
    r"\W*(对|對|是的|没错|沒錯|嗯|はい|うん|そう|네|예|맞아|응|그래|ㅇㅇ)",
    re.IGNORECASE,
)
_SENTENCE_STOP = compile_cached(r"[.!?。！？\n]")


def confirmed_questions(context: Sequence[dict[str, Any]]) -> list[str]:
    """The assistant's questions the user answered yes to, as the user's statements: "Is
    this the ADHD follow-up?" then "Yes. He's on ..." states the follow-up is for ADHD."""
    out = []
    for asked, answer in zip(context, context[1:], strict=False):
        if asked.get("role") != "assistant" or answer.get("role") != "user":
            continue
        asked_text = str(asked.get("content", "")).rstrip()
        if asked_text.endswith(("?", "？")) and _YES.match(str(answer.get("content", ""))):
            question = _SENTENCE_STOP.split(asked_text[:-1])[-1].strip()
            # "Earlier you said your take-home is £2,900. Should I save those figures?": a yes
            # to keeping what the message just said confirms what it said
            if _SAVE_THAT.search(question):
                out.append(asked_text[: -len(question) - 1].strip())
            out.append(question + ".")
    return out


_SAVE_THAT = compile_cached(
    r"\b(save|keep|remember|note|store|record|write down)\b[^?]{0,30}\b(those|these|that|this|"
    r"them|it)\b",
    _I,
)


def statements(value: str, context: Sequence[dict[str, Any]]) -> str:
    """What the user stated that may ground the claim ``value``: for a claim about the user,
    nothing the user said of someone else."""
    return _statements(context, about_user=_claims_of_user(value))


_NOTE_SENTENCE = compile_cached(r"(?<=[.!?。！？])\s+")


def _claims_of_user(value: str) -> bool:
    """Is ``value`` a claim about the user: "User is ...", or one of their own particulars
    ("User's home address: ...", "用户的住址"), not of someone or something of theirs ("User's
    sister is ...", "User's car was broken into")?"""
    first, *rest = _NOTE_SENTENCE.split(value)
    # (or a later sentence's sensitive claim: "Writing a novel. Has been having panic attacks")
    if _ABOUT_USER.search(first) or any(
        _ABOUT_USER.search(part) and categories(part) for part in rest
    ):
        return True
    if _USERS_OWN_TR.match(value):
        return True
    owner = _USERS.match(value)
    return owner is not None and _PARTICULAR.match(value, owner.end()) is not None


# Turkish says "the user has X" with the user's genitive: "Kullanıcının 80.000 TL kredi kartı
# borcu var" (not "Kullanıcının kuzeninin ...", "Kullanıcının annesi ...": someone of theirs).
_USERS_OWN_TR = compile_cached(
    r"^\W*kullan[ıi]c[ıi]n[ıi]n\s+(?!\S*(?:n[ıiuü]n)\b)(?!(?:anne|baba|eş|kardeş|abla|abi|"
    r"ağabey|kuzen|arkadaş|oğl|kız|çocu|dede|nine|babaanne|anneanne|teyze|hala|amca|dayı|"
    r"patron|müdür|komşu|sevgili|nişanlı|kayınvalide|kayınpeder|yeğen|torun)\w*)",
    re.IGNORECASE,
)


# What is the user's own to state: where they live, what they earn or owe, their health,
# faith, politics, status, work.
_PARTICULAR = compile_cached(
    r"\s*(?:(?:home|current|new|postal|street|residential|exact|private|personal|monthly|"
    r"annual|yearly|net|gross|medical|mental|sexual|gender|political|religious|immigration|"
    r"legal|criminal|credit)\s+)?(?:address|residence|location|salary|income|earnings|wages?|"
    r"debts?|savings|net worth|diagnosis|condition|health|medications?|religion|faith|"
    r"orientation|identity|views|party|status|record|employer|workplace|score|visa|"
    r"(?:residence|work) permit)\b|"
    r"\s*(?:[\w-]{1,8}\s*)?(?:签证|簽證|居留|ビザ|비자)|"
    r"\s*(?:住址|地址|住所|居住地|工资|工資|收入|年收|月薪|病情|诊断|診斷|宗教|信仰|雇主|"
    r"在留資格|주소|연봉|월급|진단|종교)",
    re.IGNORECASE,
)


# The user as the owner of the claim's subject: "User's mother-in-law", "Kullanıcının
# kayınvalidesi", "用户的岳母": the user said "my mother-in-law", not "the user's".
_USERS = compile_cached(
    r"^\W*(the\s+)?(user|kullanıcı|pengguna)('s|’s|nın|nin)\s+|^\W*(用户|用戶)的|^\W*ユーザーの|"
    r"^\W*사용자의\s*|^\W*(des\s+)?(nutzers|benutzers)\s+",
    re.IGNORECASE,
)


def without_subject(claim: str) -> str:
    """The claim without its subject ("User", "用户", "User's"): what it says of the user or
    of someone of theirs, as the user would have said it."""
    return _USERS.sub("", _ABOUT_USER.sub("", claim)).strip()


def unheard_words(value: str, said: str) -> list[str]:
    """The sensitive words of the claim ``value`` that are not in ``said``, in any form."""
    return _missing(_value_words(_acronyms_unexplained(value, said)), said)


# An acronym and, in brackets, what it stands for: "TPS (Estatus de Protección Temporal)".
_EXPLAINED = compile_cached(
    r"(?<![^\W\d_])((?-i:[A-Z][A-Z0-9]{1,6}))\s*[(（][^()（）\n]{3,80}[)）]"
)


def _acronyms_unexplained(value: str, said: str) -> str:
    """``value`` without the model's expansion of an acronym the user said ("Tengo TPS de
    Honduras" grounds "TPS (Estatus de Protección Temporal)": the expansion claims nothing
    more)."""
    value = _EXPLAINED.sub(lambda m: m.group(1) if m.group(1) in said else m.group(0), value)
    # ... or the expansion first, the acronym after it: "antiretroviral therapy (ART)"
    value = _EXPANDED.sub(lambda m: m.group(2) if m.group(2) in said else m.group(0), value)
    # ... and the acronym spelled out, word by word: "FIV" grounds "fertilização in vitro",
    # "PTSD" "post-traumatic stress disorder"
    for acronym in dict.fromkeys(_ACRONYM.findall(said)):
        spelled = r"[\s-]+".join(f"{re.escape(c)}[^\\W\\d_]*" for c in acronym)
        value = re.sub(rf"(?<![^\W\d_]){spelled}(?![^\W\d_])", acronym, value, flags=_I)
    return value


_ACRONYM = compile_cached(r"(?<![^\W\d_])(?-i:[A-Z]{2,6})(?![^\W\d_])")
# Up to three words, then the acronym they spell in brackets: "antiretroviral therapy (ART)"
_EXPANDED = compile_cached(
    r"(?<![^\W\d_])((?:[^\W\d_][\w'’-]*\s+){0,2}[^\W\d_][\w'’-]*)\s*[(（]"
    r"((?-i:[A-Z][A-Z0-9]{1,6}))[)）]"
)


def grounded(
    value: str,
    context: Sequence[dict[str, Any]],
    *,
    supported: bool,
    relational: bool = False,
) -> bool:
    """Is a sensitive claim the user's own? ``supported``: the user's words carry its terms.

    ``relational``: the claim is only a relation and a value ("lives at: Elm Street", "works
    at: a film company"); the value must be in what the user *stated*, since a place or a
    company named in a question ("what time does the pharmacy on Elm Street close?") is the
    topic, not where the user lives."""
    said = statements(value, context)
    if not said.strip():  # only questions and requests: the topic came up, nothing was stated
        return False
    value = _acronyms_unexplained(value, said)
    words = _value_words(value)
    missing = _unheard(words, said, value)
    if missing and said != (everything := _statements(context)):
        # a clause of the claim about someone of the user's ("...; wife earns about $60,000")
        # is grounded by what the user said of them ("my wife makes around 60k")
        theirs = [c for c in _CLAIM_CLAUSE.split(value) if _of_theirs(c)]
        told = {w.lower() for c in theirs for w in _value_words(c)} - set(
            _missing(_value_words(" ".join(theirs)), everything)
        )
        missing = [w for w in missing if w not in told]
    if missing or home_unstated(value, context):
        return False
    if relational and not words:
        return (
            (_shared_stems(value, said) or 0.0) >= 0.5
            or _said_whole(value, said)
            or _names_said(value, said)
        )
    if not words and _cjk_object_said(value, said):
        return True  # "用户正在服用舍曲林" after "我最近在吃舍曲林": what is taken, the user's
    # a claim made only of relation words ("is on a low income") needs the user's statements
    # to share a word with it: a question about the topic ("what's the income limit?") does not
    shared = _shared_stems(value, said, relations=True)
    if shared is None:  # nothing to compare ("52:31", "花生")
        return supported or bool(words)
    return bool(words) or (supported and shared > 0) or shared >= 0.5


def home_unstated(value: str, context: Sequence[dict[str, Any]]) -> bool:
    """Does ``value`` give the user's street address when no statement of the user calls a
    place home? A place the user goes to ("directions to 742 Alder Street", "deliver a parcel
    to Strada Lalelelor 14") is not where they live, however closely the claim repeats it. (A
    city or a district is not checked so: "I'm in Tbilisi now" says it in too many ways.)"""
    labelled = _RESIDENCE_CLAIM.match(value.lstrip(" -*•\t")) is not None
    return (
        (_claims_of_user(value) or _USERS_HOME.search(value) is not None or labelled)
        and _HOUSE_NUMBER.search(value) is not None
        and bool(_RESIDENCE_CLAIM.search(value))
        and not _RESIDENCE_SAID.search(statements(value, context))
    )


# The user's home named with the user after it: "Adresa de domiciliu a utilizatorului",
# "Domicilio del usuario", "Wohnadresse des Nutzers", "Адрес проживания пользователя".
_USERS_HOME = compile_cached(
    r"\b(?:adres\w*|direcci[oó]n|domicilio|domiciliu|adresse|wohnadresse|wohnanschrift|"
    r"indirizzo|endere[cç]o|адрес\w*)(?:\s+[^\W\d_]+){0,2}\s+(?:a|de l'|de la|del|des|der|"
    r"dell'|do|da|di)?\s*(?:utilizatorului|usuari[oa]|utilisat(?:eur|rice)|nutzers?|"
    r"benutzers?|utente|usu[áa]ri[oa]|пользовател\w*)\b",
    _I,
)
_HOUSE_NUMBER = compile_cached(r"\d")
# A claim of where the user lives, and the words that say a place is one's home.
_RESIDENCE_CLAIM = compile_cached(
    # (not another address: "office address", "shipping address")
    r"\b(?:home address|(?<!office )(?<!work )(?<!business )(?<!company )(?<!shipping )"
    r"(?<!delivery )(?<!billing )(?<!mailing )(?<!school )(?<!email )(?<!e-mail )(?<!ip )"
    r"(?<!web )address|residential address|domicile|domicilio|domiciliu|"
    r"direcci[oó]n (?:de casa|particular)|wohnadresse|wohnanschrift|adresse du domicile|"
    r"indirizzo di casa|endere[cç]o (?:residencial|de casa)|hemadress\w*|woonadres|"
    r"adres zamieszkania|домашн\w* адрес\w*|адрес проживания)\b|住址|家庭地址|住所|자택|집 주소",
    _I,
)
_RESIDENCE_SAID = compile_cached(
    # (not the flat of an address: "41 Marlowe Terrace, Apt 3B" is where the user goes)
    r"\b(?:live|lives|living|lived|home|house|(?:flat|apartment|apt)(?!\.?\s*#?\s*\w{0,2}\d)|"
    r"my place|our place|my address|"
    r"our address|moved|move in|reside|vivo|vivimos|casa|piso|mi direcci[oó]n|wohne|wohnen|"
    r"zuhause|wohnung|meine adresse|unsere adresse|habite|habitons|chez moi|domicile|"
    r"appartement|maison|mon adresse|moro|moramos|minha casa|meu endere[cç]o|abito|abitiamo|"
    r"casa mia|il mio indirizzo|bor|hemma|l[äa]genhet|min adress|woon|wonen|thuis|mijn adres|"
    r"mieszkam|mieszkanie|m[óo]j adres|domu|живу|живём|квартир\w*|мой адрес|дом\w*|"
    r"locuiesc|adresa mea|acas[ăa]|bydl[íi]m|tinggal|rumah|s[ốo]ng ở|nh[àa] t[ôo]i|"
    r"evim|oturuyorum|adresim|ya[şs]ıyor\w*|hemadress\w*|переехал\w*|переїха\w*|"
    r"mudamos|me mud[ée]|umgezogen|d[ée]m[ée]nag\w*|trasferit\w*|verhuisd)\b|我家|住在|住址|"
    r"家在|我的地址|自宅|うち|家は|우리\s?집|사는|"
    r"집 주소|"
    r"أسكن|بيتي|عنواني|גר|גרה|ביתי|הכתובת שלי|घर|रहता|रहती|خانه|آدرسم",
    _I,
)
# A word of four letters or more; Indic letters with their vowel signs, which are marks.
_LONG_WORD = compile_cached(r"(?:[^\W\d_]|[\u0900-\u0dff]){4,}")
_FRAME_WORDS = """\
user users user's usuario usuaria utilisateur utilisatrice nutzer nutzerin utente usuário with
from that this their they have also just उपयोगकर्ता المستخدم المستخدمة pengguna kullanıcı người"""
_FRAME = frozenset(_FRAME_WORDS.split())
# The claim's subject and relation in CJK ("用户在华为工作"): what is left is what it names.
_CJK_FRAME = compile_cached(
    r"用户|用戶|该用户|該用戶|工作|上班|住在|居住|生活在|ユーザー|사용자|ผู้ใช้|ทำงาน(?:อยู่)?ที่|"
    r"อาศัยอยู่(?:ที่)?|บ้านอยู่(?:ที่)?"
)


_CLAIM_CLAUSE = compile_cached(r"[;；]|,\s+(?=(?:and\s+)?(?:his|her|their)?\s*[^\W\d_]+\s)")
_THEIR = compile_cached(r"^\W*(?:and\s+)?(?:his|her|their|the user's|user's)\s+", _I)


def _of_theirs(clause: str) -> bool:
    """Is a clause of a claim about someone of the user's ("wife earns ...", "her son has
    ...")? Read as the user would say it: "my wife earns ..."."""
    return _about_someone_else("my " + _THEIR.sub("", clause).lstrip(" ,;"))


# A name in a claim: a capitalised word past the first ("Redline Security", "Oudegracht"),
# or a number ("112"). Every one must be the user's: "relocating to Tokyo in May for a job at
# Rakuten" after "tipping in Tokyo? Heading there in May" names an employer nobody said.
# (a capital that opens a sentence names nothing: "... Ventolin. Μένει στη ...")
_NAME = compile_cached(
    r"(?<=[\s(“\"'«])(?<![.!?;:]\s)[A-ZÀ-ÖØ-ÞА-ЯЁЄІЇΑ-ΩΆ-Ώ][\w'’-]+|(?<![\w.,])\d[\d\w/-]*"
)


def _names_said(value: str, said: str) -> bool:
    """Did the user's statements give every name of a relational claim? "Works as a
    penetration tester at Redline Security; often asks about exploits" after "I'm a pentester
    at Redline Security": the role and the rest in other words, the employer in the user's."""
    names = {_key(n) for n in _NAME.findall(value)}
    return bool(names) and names <= {_key(w) for w in _WORD.findall(said)}


def _said_whole(value: str, said: str) -> bool:
    """The value as written, or for CJK most of its character pairs ("上海市徐汇区" from
    "搬到上海徐汇区了"), is in the user's statements."""
    if len(value.strip()) >= 2 and value.strip().lower() in said.lower():
        return True
    han = "".join(_CJK.findall(_CJK_FRAME.sub("", value)))
    pairs = [han[i : i + 2] for i in range(len(han) - 1)]
    return bool(pairs) and sum(p in said for p in pairs) / len(pairs) >= 0.5


def ungrounded(value: str, context: Sequence[dict[str, Any]]) -> list[str]:
    """The sensitive words of ``value`` that nothing the user said supports.

    A word is supported when the user used it with any ending ("depressed" grounds
    "depression": the same first four letters), a number when the user gave the same amount
    ("85k" and "85,000"), a CJK word when the user's messages contain it.
    """
    return _unheard(_value_words(value), _statements(context))


def _unheard(words: list[str], said: str, value: str = "") -> list[str]:
    """``_missing``, less a word naming the kind of a heard claim: "trastorno de ansiedad" when
    the user said "ansiedad" ("disorder", "Störung", "расстройство" claim nothing more); and
    less the gloss in brackets after a heard word of ``value``: "Ozempic (semaglutide)"."""
    missing = _missing(words, said)
    if any(w.lower() not in missing and w.lower() not in _KIND_WORDS for w in words):
        missing = [w for w in missing if w not in _KIND_WORDS]
    glosses = {
        m.group(2).lower()
        for m in _GLOSSED.finditer(value)
        if m.group(1).lower() not in missing and m.group(1).lower() in {w.lower() for w in words}
    }
    return [w for w in missing if w not in glosses]


# A medicine and its generic name in brackets: "Ozempic (semaglutide)", "Zoloft (sertraline)"
# (one word, named as medicines are: not "Ozempic (HIV)")
_GLOSSED = compile_cached(
    r"([^\W\d_][\w-]+)\s*[(（]\s*([a-z]+(?:ide|ine|ol|il|ate|mab|pril|sartan|statin|azole|"
    r"mycin|cillin|pam|lam|pine|one|fen|xib|tinib|parin|gliptin|formin|prazole))\s*[)）]",
    _I,
)


_KIND_WORDS_TEXT = """\
धर्म disorder condition syndrome diagnosis trastorno transtorno síndrome sindrome diagnóstico
störung erkrankung diagnose syndrom trouble troubles diagnostic disturbo disturbi diagnosi
расстройство расстройства синдром диагноз zaburzenie zaburzenia stoornis störning bozukluğu
病情 病況 病况 症状 症狀 病名"""
_KIND_WORDS = frozenset(_KIND_WORDS_TEXT.split())


def _value_words(value: str) -> list[str]:
    """What a sensitive claim claims: the words of its matches that are not relations, a CJK
    match whole."""
    found = []
    folded = skeleton(value)
    readings = [value] if folded == value else [value, folded]
    for name, pattern in CATEGORIES.items():
        if name in RELATIONAL:
            continue
        for match in (m for reading in readings for m in pattern.finditer(reading)):
            span = match.group(0).strip()
            if _CJK.search(span):
                if span not in _CJK_RELATION:
                    found.append(span)
                continue
            words = _WORD.findall(span)
            # a match that is one short word ("gay", "гей") is the claim itself
            claimed = [w for w in words if _claims(w)]
            alone = words == [span] and len(span) >= 3 and span.lower() not in _RELATION
            found += claimed or (words if alone else [])
    return found


# A claim the user's words imply without its word: "my husband and I" says "married".
_IMPLIED = [
    # "expecting a baby" says "pregnant", and the other way round
    (
        compile_cached(r"^(expecting|baby|child|twins|pregnan\w*)$", _I),
        compile_cached(
            r"\b(pregnan\w*|expecting (?:a |our |their |her |his )?(?:baby|child|twins)|"
            r"due (?:in|on|date)|(?:\d+|a few|some) weeks along)\b",
            _I,
        ),
    ),
    (
        # "avoid alcohol at work events" after "ways to skip drinking": going without it, not a
        # habit ("smelling like beer" of a coworker; "alcoholic" claims more than a drink)
        compile_cached(r"^(alcohol|alkohol|alcool)$", _I),
        compile_cached(
            r"\b(?:skip\w*|avoid\w*|stop\w*|quit\w*|give up|giving up|cut\w* (?:down|back) on|"
            r"without|no more|off)\s+(?:the\s+)?(?:drinking|drinks?|alcohol|booze)\b|"
            r"\bI\s+(?:don't|do not|can't|cannot|won't|shouldn't)\s+drink\b",
            _I,
        ),
    ),
    (
        # a felony is a conviction: "a 2016 felony conviction" after "I have a felony from 2016"
        compile_cached(r"^(conviction|convictions|convicted)$", _I),
        compile_cached(r"\b(felon(?:y|ies)|convict\w*)\b", _I),
    ),
    (
        compile_cached(r"^(laid|lay)", _I),
        compile_cached(r"\b(lay-?offs?|laid off|let go|lost (his|her|their|my|a|the) job)\b", _I),
    ),
    # what the user owes on a loan or a card is a debt: "$4,100 on a Visa at 24% APR", "40
    # tys. zł długu w parabankach" claim "debts", "zadłużenie"
    (
        compile_cached(
            r"^(debt\w*|indebted|zadłuż\w*|zadluz\w*|dług\w*|dlug\w*|schulden?|verschuld\w*|"
            r"deuda\w*|endeudad\w*|dette\w*|endett\w*|dívida\w*|divida\w*|debit[oi]|долг\w*|"
            r"задолж\w*|skuld\w*|borç\w*|borc\w*|hutang|utang|nợ|负债|負債|欠债|欠債|借金|빚|"
            r"क़र्ज़|कर्ज़?|ऋण|उधार)",
            _I,
        ),
        compile_cached(
            r"\b(loans?|credit ?cards?|visa|mastercard|amex|owe|owes|owing|overdraft|mortgage|"
            r"apr|kredyt\w*|pożycz\w*|pozycz\w*|dług\w*|dlug\w*|parabank\w*|chwilówk\w*|"
            r"préstamo\w*|prestamo\w*|tarjeta de crédito|crédit\w*|credit\w*|prêt\w*|kredit\w*|"
            r"darlehen|кредит\w*|займ\w*|долг\w*|lån|skuld\w*|borç\w*|borc\w*|hutang|pinjaman|"
            r"empréstimo\w*|prestito|mutuo|emi)\b|贷款|貸款|信用卡|ローン|借金|대출|카드빚|लोन|ऋण|"
            r"ईएमआई|क़िस्त|किस्त",
            _I,
        ),
    ),
    # a diabetes type says the diabetes: "diagnosed type 2 in march", "tengo tipo 1", "2型"
    (
        compile_cached(r"^(diabet\w*|diabète\w*|диабет\w*|糖尿病|당뇨\w*|मधुमेह|डायबिटीज़?)", _I),
        compile_cached(
            r"\b(type|typ|tipo|тип|tyyppi)[ -]?(1|2|one|two|i|ii)\b(?![\d.,:/])|\bt[12]d\b|"
            r"\bdm ?(1|2|i|ii)\b|[12]型(?!号|號)|제?[12]형|"
            # Hindi says "sugar" for diabetes: "मैं शुगर का मरीज़ हूँ", "मम्मी की शुगर"
            r"शुगर",
            _I,
        ),
    ),
    # a salary says what the user earns: "Mein Gehalt ist 1.900 netto" grounds "verdient"
    (
        compile_cached(
            r"^(verdien\w*|earn\w*|gana|ganas|gano|gagne\w*|guadagn\w*|ganha\w*|tjänar|"
            r"зарабатыва\w*|kazan\w*)",
            _I,
        ),
        compile_cached(
            r"\b(gehalt\w*|lohn|löhne|netto|brutto|salary|salaries|wages?|paycheck|take-home|"
            r"sueldo|salario|salaire|stipendio|salário|lön|loon|зарплат\w*|оклад\w*|maaş\w*)\b|"
            r"工资|工資|月薪|年薪|給料|月給|年収|월급|연봉",
            _I,
        ),
    ),
    # sobriety says the addiction it recovers from: "two years sober", "seco desde 2019"
    (
        compile_cached(
            r"^(alcohol\w*|addict\w*|alkohol\w*|adicci\w*|sucht\w*|alcool\w*|dipenden\w*|"
            r"verslav\w*|алкогол\w*|зависим\w*|酗酒|成瘾|成癮|アルコール依存|依存症|알코올|중독)",
            _I,
        ),
        compile_cached(
            r"\b(sober|sobriety|(in|from) recovery|aa meetings?|alcoholics anonymous|"
            r"(stopped|quit|gave up) drinking|sobri[oa]|sobriedad|nüchtern|trocken|abstinent\w*|"
            r"sobre|sobriété|astemio|sobrio|sóbri[oa]|nuchter|nykter|трезв\w*|не пью|"
            # not drinking, said of anyone: "he doesn't drink", "он не пьёт", "trinkt nicht"
            r"(does not|doesn'?t|don'?t|do not|never) drinks?|не пь[её]т|не пьют|"
            r"trinkt? (nicht|keinen alkohol)|no beb[eo]|ne boi(s|t) pas|non bev[eo]|"
            r"não beb[eo]|dricker inte|drinkt niet|içki içm\w*|alkol almıyor)\b|"
            r"戒酒|断酒|禁酒|금주|단주",
            _I,
        ),
    ),
    # an observance says the faith that keeps it: "I keep kosher", "我信佛", "I fast for Ramadan"
    (
        compile_cached(
            r"^(jew\w*|judaism|jüdisch\w*|judí[oa]s?|juif|juive|ebre[oa]|judeu|judia)", _I
        ),
        compile_cached(
            r"\b(keep(s|ing)? kosher|eat(s|ing)? (only )?kosher|observ\w* (the )?(shabbat|sabbath)|"
            r"keep(s|ing)? (the )?(shabbat|shabbos)|"
            r"koscher (leben|essen)|mange casher|como kosher|como kasher)\b",
            _I,
        ),
    ),
    (
        compile_cached(r"^(muslim\w*|islam\w*|musulm\w*)", _I),
        compile_cached(
            r"\b(fast(ing)? (for|during) ramadan|pray(ing)? (five times|salah)|"
            r"observ\w* ramadan)\b",
            _I,
        ),
    ),
    # the umbrella term says less than the word it covers: "as a gay couple" says "LGBTQ"
    (
        compile_cached(r"^(lgbt\w*|queer\w*)", _I),
        compile_cached(
            r"\b(gay|lesbian|lesbienne|lesbiana|lesbica|lésbica|lesbisch\w*|schwul\w*|bisexual\w*|"
            r"bisexuel\w*|bissexual|transgender|trans|homosexu\w*|omosessual\w*|queer|gai|gey|"
            r"гей|лесбиянк\w*)\b|同性恋|同性戀|ゲイ|レズビアン|게이|레즈비언",
            _I,
        ),
    ),
    # an income is what the user says they earn: "ganho uns 7 mil por mês" claims "renda"
    (
        compile_cached(
            r"^(income|earnings|renda|rendimento\w*|ingresos?|revenus?|einkommen|reddito|"
            r"inkomst\w*|inkomen|доход\w*|gelir\w*|収入|收入|수입)",
            _I,
        ),
        compile_cached(
            r"\b(earn|earns|make|makes|ganho|ganha|gano|gana|gagne|gagnes|verdiene|verdient|"
            r"guadagno|guadagna|tjänar|tjanar|verdien|zarabiam|зарабатываю|зарабатывает|"
            r"kazanıyorum|kaziyorum)\b[^.!?\n]{0,40}\d|稼いで|赚|賺|벌어",
            _I,
        ),
    ),
    (compile_cached(r"^(佛教|佛)"), compile_cached(r"信佛|拜佛|学佛|學佛|念佛|皈依")),
    (compile_cached(r"^(基督|天主教)"), compile_cached(r"信主|信耶稣|信耶穌|信基督|受洗")),
    (
        compile_cached(r"^(伊斯兰|伊斯蘭|穆斯林)"),
        compile_cached(r"信真主|信伊斯兰|信伊斯蘭|做礼拜|做禮拜"),
    ),
    (
        compile_cached(
            r"^(married|casad[oa]|verheiratet|mari[ée]e?|sposat[oa]|gift|женат\w*|замужем|"
            r"getrouwd|żonat\w*|zamężn\w*|evli|結婚|结婚|既婚|결혼|기혼)",
            _I,
        ),
        compile_cached(
            r"\b(husband|wife|spouse|marido|esposa|esposo|ehemann|ehefrau|mein mann|meine frau|"
            r"mon mari|ma femme|époux|épouse|marito|moglie|min man|min fru|hustru|make|maka|"
            r"echtgeno\w*|mąż|żona|kocam|karım|eşim)\b|муж\b|жена\b|мой муж|моя жена|丈夫|妻子|"
            r"老公|老婆|主人|夫が|妻が|남편|아내",
            _I,
        ),
    ),
]


# One faith (or its fast), or a salary, named in other languages: a note in English of
# "我是穆斯林" or "ich bin katholisch" claims what the user said. Each pattern is one term in
# every language it lists; the claim's word and the user's words must both be that term.
_SAME_TERM = [
    compile_cached(p, _I)
    for p in (
        r"muslim\w*|moslem\w*|moslim\w*|musulm\w*|muçulman\w*|мусульман\w*|m[uü]sl[uü]man\w*|"
        r"islam\w*|ислам\w*|伊斯兰|伊斯蘭|イスラム|이슬람|इस्लाम|إسلام|الإسلام|"
        r"穆斯林|回教徒|ムスリム|イスラム教徒|무슬림|मुसलमान|मुस्लिम|مسلم\w*",
        r"ramadan\w*|ramad[aã]o|ramazan\w*|рамадан\w*|рамазан\w*|斋月|齋月|ラマダン|라마단|رمضان",
        r"catholi\w*|katholi\w*|katoli\w*|católic\w*|cattolic\w*|католи\w*|天主教|カトリック|천주교|"
        r"가톨릭",
        r"christian\w*|christ(?:en|lich)\w*|chrétien\w*|cristian[oa]s?|cristã[oa]?|kristen\w*|"
        r"chrześcija\w*|hristiyan\w*|христиан\w*|基督|キリスト教|기독교|ईसाई|مسيحي",
        r"protestant\w*|evangeli\w*|протестант\w*|新教|プロテスタント|개신교",
        r"jew\b|jewish|judaism|jüd\w*|judí[oa]s?|judeu|judia|juif|juive|ebre[oa]|joods\w*|"
        r"żyd\w*|yahudi\w*|еврей\w*|иуде\w*|犹太|猶太|ユダヤ|유대|يهودي",
        r"buddhis\w*|buddhist\w*|budis\w*|bouddhis\w*|buddist\w*|буддиз\w*|буддист\w*|佛教|"
        r"仏教|불교|बौद्ध",
        r"hindu\w*|hindú\w*|indou\w*|индуис\w*|индус\w*|印度教|ヒンドゥー|힌두|हिंदू|हिन्दू",
        r"orthodox\w*|ortodox\w*|orthodox\w*|правосла\w*|ορθόδοξ\w*|东正教|東正教",
        r"atheis\w*|atheist\w*|ateis\w*|ateo|atea|athée|atheïst\w*|ateist\w*|атеист\w*|无神论|"
        r"無神論|무신론",
        # HIV-positive, in the words each language says it with: "Sou soropositivo" is "HIV+"
        r"\bhiv\b|\bvih\b|\bвич\b|\bвіл\b|sero-?positi\w*|soro-?positi\w*|séropositi\w*|"
        r"ВИЧ|艾滋|愛滋|HIV陽性|에이즈|เอชไอวี",
        # a divorce: "אני בהליך גירושין" is "going through a divorce"
        r"divorc\w*|div[óo]rcio|divorzio|scheidung\w*|geschieden|rozw[óo]d\w*|развод\w*|"
        r"розлуч\w*|boşan\w*|bercerai|cerai|ly h[ôo]n|離婚|离婚|이혼|גירושין|גרוש\w*|طلاق|तलाक",
        # a miscarriage, a pregnancy: "j'ai fait une fausse couche" is "had a miscarriage"
        r"miscarr\w*|fausses? couches?|fausses?-couches?|aborto espont[áa]neo|aborto spontaneo|"
        r"fehlgeburt\w*|poronieni\w*|выкидыш\w*|викидень\w*|missfall\w*|miskraam|"
        r"keguguran|sẩy thai|流产|流產|流産|유산했|düşük yap\w*",
        r"pregnan\w*|enceinte|grossesse|embarazad\w*|embarazo|schwanger\w*|incinta|gravidanza|"
        r"gr[áa]vida|gravidez|zwanger\w*|gravid\w*|w ciąży|ciąż\w*|беременн\w*|вагітн\w*|"
        r"hamile|hamil\b|có thai|mang thai|怀孕|懷孕|妊娠|임신",
        # bankruptcy: "개인파산 신청했어요" is "filed for bankruptcy"
        r"bankrupt\w*|insolven\w*|faillite|quiebra|bancarrota|fal[êe]ncia|fallimento|"
        r"konkurs\w*|upad[łl]o[śs][ćc]\w*|банкрот\w*|iflas\w*|pailit|破产|破產|破産|파산|दिवालिया",
        # a salary, in a word of its language or one borrowed from English: "मेरी सैलरी
        # 85,000 है" says the "मासिक वेतन" a note writes; "my salary" says "Gehalt"
        r"\b(?:salar\w*|sal[áa]ri\w*|salaire\w*|sueldo\w*|gehalt\w*|gehält\w*|stipendi\w*|"
        r"l[öo]n\b|l[öo]nen\b|loon\b|wynagrodzeni\w*|pensj[aiię]\b|plat(?:u|em|y)?\b|"
        r"зарплат\w*|оклад\w*|зарплатн\w*|maa[şs]\w*|gaji\w*|l[ưu][ơo]ng\b)|"
        r"सैलरी|सेलरी|वेतन|तनख्वाह|तनख़्वाह|पगार|راتب|工资|工資|薪水|薪资|薪資|月薪|給料|給与|"
        r"月給|サラリー|월급|급여|샐러리|เงินเดือน",
    )
]


def _same_term(word: str, said: str) -> bool:
    return any(term.match(word) and term.search(said) for term in _SAME_TERM)


def _stem(word: str) -> str:
    """A short word ending in a vowel without that vowel ("gana" -> "gan"), else ""."""
    w = word.lower()
    return w[:-1] if w.isalpha() and 4 <= len(w) <= 6 and w[-1] in "aeiou" else ""


def _implied(word: str, said: str) -> bool:
    return any(claim.search(word) and by.search(said) for claim, by in _IMPLIED)


# Arabic writes the article, a conjunction or a preposition into the word: "بالسكري",
# "بسكري" and "وسكري" say "سكري"
_ARABIC_PREFIX = compile_cached(r"^(?:[وفبكل]?ال|لل|[وفبكل])(?=[\u0600-\u06ff]{3,})")
# ... and Hebrew "and", "the", "in", "to", "from", "that": "בשקיעה" and "משקיעה" say "שקיעה"
_HEBREW_PREFIXES = "ובהלמשכ"


def _hebrew_cuts(word: str) -> list[str]:
    """``word`` without one or two prefix letters, each way ("ושומרת": "שומרת", "ומרת"), when
    three letters are left."""
    cuts = []
    for n in (1, 2):
        head, rest = word[:n], word[n:]
        if (
            all(c in _HEBREW_PREFIXES for c in head)
            and len(re.findall("[\u05d0-\u05ea]", rest)) >= 3
        ):
            cuts.append(rest)
    return cuts


_SEMITIC_WORD = compile_cached(r"^[\u0590-\u06ff]{3,}$")


def _missing(words: list[str], said: str) -> list[str]:
    said = f"{said} {skeleton(said)}"
    said_lower = said.lower()
    said_words = _WORD.findall(said)
    heard = {_key(w) for w in said_words}
    heard |= {_key(_ARABIC_PREFIX.sub("", w)) for w in said_words if _ARABIC_PREFIX.match(w)}
    heard |= {_key(cut) for w in said_words for cut in _hebrew_cuts(w)}
    heard |= {
        _key(full) for short, full in _SHORT_FORMS.items() if re.search(rf"\b{short}\b", said_lower)
    }
    heard |= _said_amounts(said)
    # A short verb said in the first person is the one written in the third: only its final
    # vowel differs ("gano" / "gana", "ganho" / "ganha"; not "broke" / "brown").
    short = {_stem(w) for w in said_words if _stem(w)}
    missing = [
        w
        for w in words
        if (
            w.lower() not in said_lower
            if _CJK.search(w)
            # "Borç" is heard in "borcum": a word is read with and without its accents too
            else not {_key(w), _key(skeleton(w)), *map(_key, _hebrew_cuts(w))} & heard
            and not (_stem(w) and _stem(w) in short)
            # a Hebrew or Arabic match cut short inside a longer word ("דתי" of "דתייה")
            and not (_SEMITIC_WORD.match(w) and any(h.startswith(_key(w)) for h in heard))
        )
        and not _implied(w, said)
        and not _same_term(w, said)
    ]
    return list(dict.fromkeys(w.lower() for w in missing))


# An amount said with a word for its multiplier: "45 bin TL" (Turkish thousand), "9万ユーロ",
# "3 mil euros", "1,5 Mio.", "2 lakh", "120 тыс." is the number a note writes in digits.
_MULTIPLIERS = {
    "k": 1_000, "bin": 1_000, "mil": 1_000, "tsd": 1_000, "tausend": 1_000, "thousand": 1_000,
    "тыс": 1_000, "тысяч": 1_000, "тысячи": 1_000, "тысяча": 1_000, "千": 1_000, "천": 1_000,
    "万": 10_000, "萬": 10_000, "만": 10_000, "lakh": 100_000, "lac": 100_000,
    "mn": 1_000_000, "mio": 1_000_000, "million": 1_000_000, "millionen": 1_000_000,
    "millions": 1_000_000, "milyon": 1_000_000, "miljoen": 1_000_000, "miljon": 1_000_000,
    "millones": 1_000_000, "milioni": 1_000_000, "milhões": 1_000_000, "млн": 1_000_000,
    "миллион": 1_000_000, "миллиона": 1_000_000, "миллионов": 1_000_000, "crore": 10_000_000,
    "億": 100_000_000, "억": 100_000_000,
}  # fmt: skip
_AMOUNT = compile_cached(
    # (a CJK multiplier runs into the word after it: "9万ユーロ"; "5 kg" or "3 miles" is none)
    r"(?<![\d.,])(\d{1,6}(?:[.,]\d{1,3})?)\s?(" + "|".join(_MULTIPLIERS) + r")(?![A-Za-zÀ-ÿА-яЁё])",
    _I,
)


def _said_amounts(said: str) -> set[str]:
    """The amounts ``said`` gives with a multiplier word, as the digits a note writes."""
    out = set()
    for match in _AMOUNT.finditer(said):
        number = float(match.group(1).replace(",", "."))
        out.add(str(round(number * _MULTIPLIERS[match.group(2).lower()])))
    return out


def _shared_stems(value: str, said: str, relations: bool = False) -> float | None:
    """Share of the value's longer words whose first four letters the user used: inflected
    languages ("носит" / "ношу" differ, "астма" is the same) where exact terms miss."""
    heard = {w.lower()[:4] for w in _LONG_WORD.findall(said)}
    # not the claim's subject and relation ("User lives in Bristol with ..."): what it names
    mine = [
        w.lower()[:4]
        for w in _LONG_WORD.findall(value)
        if (relations or w.lower() not in _RELATION) and w.lower() not in _FRAME
    ]
    return sum(w in heard for w in mine) / len(mine) if mine else None


# What a CJK claim says is taken or had ("服用舍曲林", "患有…"): the words after its relation.
_CJK_OBJECT = compile_cached(r"(?:患有|服用)([\u3400-\u9fff\u30a0-\u30ff]{2,8})")


def _cjk_object_said(value: str, said: str) -> bool:
    """Did the user say what the CJK claim names after its relation (most of its character
    pairs: "舍曲林" in "我最近在吃舍曲林")? A run without spaces has no words to compare."""
    pairs = {o[i : i + 2] for o in _CJK_OBJECT.findall(value) for i in range(len(o) - 1)}
    return bool(pairs) and sum(p in said for p in pairs) / len(pairs) >= 0.75


def _claims(word: str) -> bool:
    """Is this word of a sensitive match part of what is claimed ("depression", "85k"), not
    a relation ("works for", "lives in")?"""
    if word[:1].isdigit() or (len(word) >= 2 and word.isupper()):  # "85k", "HIV", "ADHD"
        return True
    # (an Indic word counts its vowel signs: "जैन" is a whole word in three code points)
    long_enough = len(word) >= 4 or (len(word) == 3 and _INDIC.search(word) is not None)
    return long_enough and word.lower() not in _RELATION


_INDIC = compile_cached(r"[\u0900-\u0dff]")


# A currency said one way and written another ("1250 euros", "1,250.00 EUR") is the same.
_CURRENCY = {
    "eur": "€", "euro": "€", "euros": "€", "€": "€", "usd": "$", "dollar": "$", "dollars": "$",
    "$": "$", "gbp": "£", "pound": "£", "pounds": "£", "£": "£",
}  # fmt: skip


def _key(word: str) -> str:
    word = word.lower().strip()
    if word in _CURRENCY:
        return _CURRENCY[word]
    if word[:1].isdigit():
        # "1,250.00" is the "1250" the user said: cents of zero and separators dropped
        thousands = re.fullmatch(r"(\d+)[.,](\d{1,2})k", word)
        if thousands:  # "4.1k" is 4,100 (not 41k)
            return str(int(thousands.group(1)) * 1000 + int(thousands.group(2).ljust(3, "0")))
        number = re.sub(r"[.,\s]", "", re.sub(r"[.,]0{1,2}$", "", word))
        return number[:-1] + "000" if number.endswith("k") else number
    # a doubled letter is one: "bissexual" (pt) is the "bisexual" that "bi" says
    return re.sub(r"(\w)\1", r"\1", word)[:4]
