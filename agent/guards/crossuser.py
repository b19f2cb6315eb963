"""A write about another user, or naming another user id or session, never enters this memory.

Names of people in the user's life ("Jonas", "my mother") are fine; what is refused is a write
that addresses another *account*: ``user_id=bob``, ``user 'mallory'``, a fact whose subject is
``user:dave``, another session id, or "all the other users", and any id the user's own request
asks to write into ("add to client #5521's notes") when the write repeats it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .prefilter import finditer
from .regex_cache import compile_cached
from .secret_values import labelled_values

_ID = r"([A-Za-z0-9][\w.@-]{0,63})"
_NAMED_USER = [
    compile_cached(
        r"\b(?:user|account|profile|member|customer|usuari[oa]|usuário|utilisateur|utente|nutzer|"
        r"benutzer|konto|cuenta|conta|compte|gebruiker|użytkownik\w*|kullanıcı\w*|"
        rf"пользовател[ья]|ユーザー|사용자)[_ -]?id[\"'`]?\s*[:=：]\s*[\"'`]?{_ID}",
        re.I,
    ),
    compile_cached(rf"\buser:{_ID}", re.IGNORECASE),
    # an id in brackets after a name, or a "uid" anywhere: "Javier (id jav_88)", "王磊（uid
    # wanglei_07）", "Li (user id li_3)", "uid mk-2201"
    compile_cached(
        r"[(（\[]\s*(?:uid|user[ _-]?id|userid|user|id|account|acct|用户ID|"
        r"用户名|用戶ID|账号|帳號|משתמש|משתמשת|χρήστης|χρήστη|kullanıcı|użytkownik|uživatel|"
        r"felhasználó|utilizator|käyttäjä|bruger|bruker|användare|người dùng|pengguna|ผู้ใช้|"
        r"उपयोगकर्ता|کاربر|مستخدم|"
        r"ユーザーID|アカウント|아이디|계정|usuario|utente|nutzer|utilisateur|usuário|konto|cuenta|"
        # (Arabic with or without its shadda: "المعرّف")
        r"conta|compte|аккаунт|логин|id пользователя|מזהה|المعر\u0651?ف|معر\u0651?ف|hesap|akun|"
        r"tài khoản|"
        r"profile|perfil|profil|profilo|profiel|профиль)\s*[:=：#]?\s*"
        # (an id with a digit, "_" or a dot: "(id theo.l)", "(conta 44-1093)")
        r"((?=[\w.-]*[\d_.])[A-Za-z][\w.-]*[A-Za-z0-9]|\d{3,}|\d+(?:-\d+)+)\s*[)）\]]|"
        r"\buid\s*[:=：#]?\s*((?=[\w.-]*[\d_])[A-Za-z][\w.-]*|\d{3,})",
        re.I,
    ),
    # "uid=44120", "acct_id: 7731", "customer_id=...", a JSON's '"target_user": "u12"'
    compile_cached(
        r"\b(?:uid|userid|acct(?:_?id)?|account_?id|customer_?id|client_?id|member_?id|"
        r"target_?(?:user|account|profile)(?:_?id)?|for_?user(?:_?id)?|on_?behalf_?of|owner_?id)"
        rf"[\"']?\s*[:=：]\s*[\"'`]?{_ID}",
        re.I,
    ),
    # "user id bob_77 is...": without a separator only an id-looking token counts.
    compile_cached(
        r"\buser[_ ]?(?:id|name|account)\s+(?:is\s+)?([A-Za-z0-9]*[\d_@][\w.@-]*)", re.I
    ),  # "user:dave", not a "User: hi" transcript line
    compile_cached(
        r"\b(?:user|account|profile|nutzers?|benutzers?|kont[oa]s?|usuari[oa]|utilisateur|"
        r"compte|cuenta|conta|utente|användare|пользовател[ья]|аккаунт[ае]?|profil|profilu|"
        r"perfil|profilo|profiel|профил[ья])\s+"
        r"[\"'`“‘«]([^\"'`”’»\s]{1,64})[\"'`”’»]",
        re.IGNORECASE,
    ),
    compile_cached(rf"\buser\s+{_ID}'s\b", re.IGNORECASE),
    # "Tenant 'brightpath-eu': ...", "workspace \"acme_eu\"": a tenant named by an id
    compile_cached(
        r"\b(?:tenant|workspace|organi[sz]ation|org|instance|mandant|inquilino|locataire)\s+"
        r"[\"'`“‘«]((?=[^\"'`”’»\s]*[-_.\d])[^\"'`”’»\s]{2,64})[\"'`”’»]",
        re.IGNORECASE,
    ),
    # "for user @kev_d": a handle is an account, not a person's name
    compile_cached(r"\b(?:user|account|member|profile|customer|client)\s+@([\w.-]{2,64})", re.I),
    # ... or before it: "add to @minji_k account notes", "@minji_k's profile"
    compile_cached(r"(?<![\w.])@([\w.-]{2,64})(?:'s|’s)?\s+(?:account|profile|user)\b", re.I),
    compile_cached(rf"(?:用户|用戶|账号|帳號)\s*(?:id|ID|名)?\s*[:：=是]?\s*[\"'“‘]?{_ID}"),
    # a path into someone's store ("/memories/u_5512/prefs.md", "users/4471/notes")
    compile_cached(
        r"(?:^|[\s/\\])(?:users?|memor(?:y|ies)|accounts?|profiles?|tenants?|members?)[/\\]"
        r"([A-Za-z]{0,6}[-_]?\d[\w.-]*)[/\\]",
        re.I,
    ),
    # A note headed by another account's id, as a record kept per account is: in brackets at
    # its start ("[acct_1042] prefers aisle seats", "【wf_02 王芳】…", "[sesja s-2291-marek]"),
    # the id lower-case letters joined by "_" or "-" to digits, or followed by three digits
    # ("[v2]", "[Q3]", "[2024-05-01]", "[COVID-19]" are no ids) ...
    compile_cached(
        r"^\s*[\[【(（]\s*(?:[^\W\d_]{2,12}\s+)?"
        r"((?-i:[a-z]{1,12})(?:[_-]\d[\w-]*|\d{3,}[\w-]*)(?:[_-][A-Za-z][\w-]*)?)"
        r"(?:\s+[^\]】)）\n]{1,30})?\s*[\]】)）]",
        re.I,
    ),
    # ... or after an account word with a colon: "Akun rina_w:", "Perfil mae_rosa:", "Profilo
    # gferri (Giulia Ferri):", the id holding "_" or a digit, or a person's name after it
    compile_cached(
        r"^\s*(?:account|acct|profile|user|konto|cuenta|conta|compte|perfil|profilo|profil|"
        r"akun|tài khoản|tai khoan|аккаунт|профиль|hesap|profiel|บัญชี(?:ลูกค้า|ผู้ใช้)?|"
        r"ลูกค้า)\s+"
        # (the profile of an account: "Perfil da conta ana.lima:", "Profile of account k_7:")
        r"(?:(?:of(?: the)?|da|de|do|del|della|dell'|der|des|du)\s+(?:account|conta|cuenta|"
        r"compte|konto|conto|user|usuário|usuario|utente|utilisateur)\s+)?"
        # (the id holding "_", a digit or a dot between letters: "ana.lima")
        r"((?=[\w.-]*(?:[\d_]|[^\W\d_]\.[^\W\d_]))[A-Za-z][\w.-]*[A-Za-z0-9]|(?:[a-z][\w.-]*|\d[\d.-]*\d)"
        # (a number is an id too when a person's name follows it: "Konto 55-203 (Sara Lind):")
        r"(?=\s*\((?-i:[A-Z])\w+\s+(?-i:[A-Z])\w+\)))\s*(?:\([^)\n]{1,40}\))?\s*[:：]",
        re.I,
    ),
    # accounts named by their ids after the plural ("aos perfis mae_ana e filho_leo:"), an
    # account of someone named with the id in brackets ("sull'account di Giulia (giulia_r)"),
    # a tenant by its id ("租户 tenant_acme")
    compile_cached(
        r"\b(?:to|on|in|into|aos|nos|nas|a los|en los|a las|en las|aux|sur les|dans les|agli|ai|"
        r"sugli|negli|auf die|in den|naar de|op de|till|på)\s+(?:the\s+|os\s+|as\s+)?"
        r"(?:other\s+|outros\s+|otros\s+|otras\s+|autres\s+|altri\s+|anderen\s+|andere\s+)?"
        r"(?:accounts|profiles|perfis|perfiles|cuentas|contas|comptes|profils|profili|konten|"
        r"konton|kontoer|profielen)\s+((?=[\w.-]*[\d_])[A-Za-z][\w.-]*[A-Za-z0-9])"
        # ... as a label of what to write there ("... mae_ana e filho_leo: ..."), not a post
        # put on the user's own handles ("to the profiles maya_art and maya_travel")
        r"(?:\s*(?:,|e|y|i|and|und|et|en|og|och)\s*[A-Za-z][\w.-]*[A-Za-z0-9])*\s*[:：]|"
        r"\b(?:account|profile|conta|cuenta|compte|konto|perfil|profil|profilo|profiel)\s+"
        r"(?:di|de|da|do|del|della|of|von|van|d['’])\s*(?-i:[A-Z])[^\W\d_]+\s*[(（]\s*"
        r"((?=[\w.-]*[\d_.])[A-Za-z][\w.-]*[A-Za-z0-9])\s*[)）]|"
        r"(?:租户|租戶|テナント|테넌트|\btenant)\s*[:：]?\s*((?=[\w.-]*[\d_])[A-Za-z][\w.-]*[A-Za-z0-9])",
        re.I,
    ),
    # an account named by its id before the word, as Hindi, Japanese, Korean and Chinese say
    # it: "rohit_s88 के अकाउंट में", "kenji_07のアカウントにも", "mina_22 계정에", "li_3的账号"
    compile_cached(
        r"(?<![\w.@])@?((?=[\w.-]*[\d_])[A-Za-z][\w.-]*[A-Za-z0-9])\s*(?:(?:के|की|का)\s*(?:अकाउंट|"
        r"खाते|खाता|प्रोफ़ाइल|प्रोफाइल|आईडी)|の?\s*(?:アカウント|プロフィール)|(?:의\s*)?(?:계정|프로필)|"
        r"的?\s*(?:账号|帳號|账户|賬戶|帐户|档案|檔案))",
        re.I,
    ),
    # a record's owner as a key ('"owner": "u-771"', "tenant=t_55")
    compile_cached(
        r"[\"'`]?\b(?:owner|owner_?id|uid|tenant|member)[\"'`]?\s*[:=]\s*[\"'`]"
        r"([A-Za-z]{0,6}[-_]?\d[\w-]*)[\"'`]",
        re.I,
    ),
]
# A numbered record an organisation keeps about someone, and the word for whom it is about, in
# many languages (for ``_THEIR_RECORDS``).
_CASE_WORD = (
    r"(?:ticket|case|claim|file|dossier|record|order|booking|session|caso|expediente|pedido|"
    r"reclamaci[oó]n|fall|bestellung|vorgang|akte|commande|affaire|r[ée]clamation|pratica|"
    r"ordine|bestelling|zaak|dossiernummer|[äa]rende[t]?|best[äa]llning|bokning|zam[oó]wienie|"
    r"sprawa|zg[lł]oszenie|sipari[sş]|talep|dosya|заказ|заявк\w*|обращени\w*|дело|"
    r"h[oồ] s[oơ]|đơn hàng|don hang|y[eê]u c[aầ]u|t[aà]i kho[aả]n|티켓|케이스|チケット|案件|"
    r"historial|historia cl[ií]nica|prontu[aá]rio|cartella clinica|krankenakte|"
    r"工单|工單)"
)
_CLIENT_WORD = (
    r"(?:client|customer|patient|tenant|member|caller|cliente|clienta|kunde|kundin|paciente|"
    r"klant|kund|kunden|klient\w*|m[uü][sş]teri|клиент\w*|пациент\w*|kh[aá]ch h[aà]ng|"
    r"kh[aá]ch|pelanggan|asiakas|고객|손님|환자|顧客|お客様|客户|客戶|患者)"
)
# A record kept about someone (not an order or a booking), and a title before a person's name
_CLIENT_RECORD = (
    r"(?:ticket|case|claim|record|dossier|session|caso|expediente|reclamaci[oó]n|fall|vorgang|"
    r"akte|sitzung|affaire|r[ée]clamation|s[ée]ance|pratica|sessione|sess[ãa]o|sesi[oó]n|zaak|"
    r"[äa]rende[t]?|sesj[aiąę]|sprawa|zg[lł]oszenie|talep|dosya|заявк\w*|обращени\w*|дело|"
    r"сесси[яи])"
)
_TITLE = (
    # (not "Dr.": "Session 104 (Dr. Lee)" is the user's own appointment)
    r"(?:mr|mrs|ms|mx|miss|herr|frau|sr|sra|srta|señor|señora|don|doña|m|mme|mlle|monsieur|"
    r"madame|sig|sig\.ra|signor|signora|meneer|mevrouw|dhr|mevr|pan|pani|państwo|"
    r"bay|bayan|г-н|г-жа|господин|госпожа)"
)
# Another person's account or records in this system, as opposed to a fact about them:
# "put in Wang Fang's profile", "add to Jonas's ticket", "another client's session".
_THEIR_RECORDS = compile_cached(
    # "Ticket #88121 (client Baptiste)", "Bestelling #NL-4412 (klant J. de Wit)", "Ärende
    # 5512 (kund: Birgitta Lund)": a numbered record that belongs to a named client
    rf"\b{_CASE_WORD}\s*(#|no\.?|nr\.?|n°|nº|number)?\s*[\w-]*\d[\w-]*\W{{0,3}}\s*"
    rf"(for\s+|of\s+)?(the\s+)?{_CLIENT_WORD}\s*[:：]?\s*(?-i:[A-ZÀ-ÖØ-ÞĐ])|"
    # "Expediente del cliente, caso #CS-20931", "the customer's file, case 4471": a client's
    # record, then its number
    # "Kundärende #CS-20931", "customer file 88213", "hồ sơ khách hàng mã KH-0932", "zgłoszenie
    # klienta nr 4471": a record and its client run together (compounded or side by side), then
    # its number
    # ("Customer record for ZD-30117", "client file, ticket #4471": a word or a sign between)
    rf"\b(?:{_CLIENT_WORD}\s*{_CASE_WORD}|{_CASE_WORD}\s+{_CLIENT_WORD})\s*"
    rf"(?:(?:[,:–-]|\bfor\b|\bof\b|\bf[üu]r\b|\bpour\b|\bpara\b|\bper\b|\bdla\b)\s*"
    rf"(?:{_CASE_WORD}\s*)?)?"
    r"(#|no\.?|nr\.?|n°|nº|№|number|m[aã]|s[oố])?\s*[A-Za-z]{0,6}-?\d[\w-]{2,}|"
    # "Ticket #88213 (customer record)", "Vorgang 5512, Kundenakte", "caso 4471 (expediente del
    # cliente)": a numbered record, then said to be a client's record
    rf"\b{_CASE_WORD}\s*(#|no\.?|nr\.?|n°|nº|№|number)?\s*[A-Za-z]{{0,6}}-?\d[\w-]{{2,}}\s*"
    rf"[(（,:–—-]\s*(?:the\s+|a\s+)?(?:{_CLIENT_WORD}(?:'s|’s)?\s*{_CASE_WORD}|{_CASE_WORD}\s+"
    rf"(?:(?:du|del|de la|de l'|de|do|da|des|der|des|dell[ao]?|van de|van|av|för)\s+)?"
    rf"{_CLIENT_WORD})\b|"
    # "Sesja #4471 (pan Nowak):", "Ticket 5512 (Mrs Patel)": a numbered record (not an order
    # or a booking, which the user has too) headed by whom it is for, a title before the name
    rf"\b{_CLIENT_RECORD}\s*(#|no\.?|nr\.?|n°|nº|№)?\s*[A-Za-z]{{0,6}}-?\d[\w-]{{2,}}\s*"
    rf"[(（]\s*{_TITLE}\.?\s+(?-i:[A-ZÀ-ÖØ-ÞĐŁŚŻŹĆŃ])[^\W\d_]+|"
    rf"\b{_CASE_WORD}\s+(of the|del|de la|de l'|du|des|do|da|della|dello|van de|von|vom|des|"
    rf"av|för)\s+{_CLIENT_WORD}\W{{1,3}}\s*({_CASE_WORD}\s*)?(#|no\.?|nr\.?|n°|nº)?\s*"
    r"[A-Za-z]{0,6}-?\d[\w-]{2,}|"
    # "Customer on ticket #48213", "the patient from case 5512": whoever a numbered record is for
    r"\b(customer|client|patient|caller|requester|guest|tenant|cliente|kunde|kundin|paciente)\s+"
    r"(on|of|in|from|behind|for|with|at|del|de|do|da|von|vom|aus|con|avec|mit|met|com|med|sur|su|"
    r"bei|z|ze|с|со|по)\s+(the\s+|il\s+|le\s+|el\s+|dem\s+|der\s+)?(ticket|case|order|"
    r"booking|claim|request|chat|call|pedido|caso|fall|bestellung|commande|dossier)\s*(#|no\.?|nr\.?|"
    r"n°|number)?\s*[\w-]*\d|"
    # "update Maria K.'s (maria.k) memory profile": a verb that edits records works the same
    r"\b(in|into|to|on|under|onto|for|update|edit|modify|overwrite|wipe|clear|access)\s+"
    r"(?!my\b|our\b|the user\b)([A-Z][\w.-]*|another|other|"
    r"a different|(?:the )?other)(\s+[A-Z][\w.-]*|\s+(client|customer|user|member|patient))?"
    r"('s|s'|’s)\s+(\([^()\n]{1,30}\)\s+)?((assistant|ai|bot|agent|chat|user|memory|personal|"
    r"private|own|customer|client|patient)\s+)?"
    r"(profile|account|user record|memory|memories|ticket|session|case|file|"
    r"record|notes|inbox|chat)\b|"
    # "may view u4's saved memories": an account id's own records
    r"\b[a-z]{1,4}\d{1,6}('s|’s)\s+(\w+\s+)?(memor(y|ies)|profile|account|notes|data|records|"
    r"history|messages|files)\b|"
    r"(?:^|(?<=[\n.]\s))[^\W\d_]+('s|’s)\s+(profile|workspace|memory)\s*[:：]|"
    # Greek: "Στο προφίλ του πελάτη Γιώργου Παπαδόπουλου (αίτημα #8841)"
    r"\b(προφίλ|λογαριασμ\w*|φάκελο|αίτημα|καρτέλα)\s+του\s+(πελάτη|ασθενή|μέλους|χρήστη)\s+"
    r"(?-i:[Α-ΩΆΈΉΊΌΎΏ])|"
    r"(?:^|(?<=[\n。]))(?!我)[^\W\d_\s：:]{1,6}的?(账号|帳號|账户|賬戶|帐户)\s*[：:]",
    re.IGNORECASE,
)
# People whose records an organisation keeps, by their role there (staff, guests, students,
# members, drivers ...), in many languages: with an id after them they name a record of
# someone else ("Employee E-2291", "Öğrenci 441203", "学号 2023017"), not a person in the
# user's life ("my son's student ID" is the user's own: see ``_MINE``).
_PERSON_RECORD = (
    r"employee|staff(?:er)?|guest|student|pupil|learner|resident|driver|"
    r"participant|applicant|candidate|volunteer|player|athlete|"
    r"empleado|trabajador|hu[eé]sped|alumn[oa]|estudiante|socio|residente|conductor|"
    r"mitarbeiter\w*|angestellte\w*|gast|sch[uü]ler\w*|studierende\w*|bewohner\w*|fahrer\w*|"
    r"employ[ée]e?|salari[ée]e?|[ée]l[èe]ve|[ée]tudiant\w*|adh[ée]rent\w*|r[ée]sident\w*|chauffeur|"
    r"funcion[aá]ri[oa]|aluno|alunа|h[oó]spede|s[oó]ci[oa]|motorista|dipendente|ospite|"
    r"studente|studentessa|autista|anst[aä]lld|elev|g[aä]st|medlem|f[oö]rare|"
    r"medewerker|werknemer|leerling|lid|bewoner|pracownik\w*|ucze[nń]\w*|uczni\w*|"
    r"student\w*|go[sś][cć]\w*|cz[lł]on\w*|kierowc\w*|[cç]al[iı][sş]an\w*|personel\w*|"
    r"[oö][gğ]renci\w*|[uü]ye\w*|misafir\w*|s[uü]r[uü]c[uü]\w*|nh[aâ]n vi[eê]n|h[oọ]c sinh|"
    r"sinh vi[eê]n|th[aà]nh vi[eê]n|h[oộ]i vi[eê]n|kh[aá]ch h[aà]ng|kh[aá]ch|t[aà]i x[eế]|"
    r"karyawan|pegawai|"
    r"siswa|murid|mahasiswa|anggota|tamu|sopir|сотрудник\w*|работник\w*|студент\w*|"
    r"ученик\w*|гост[ья]\w*|участник\w*|водител\w*|член\w*"
)
# ... and scripts without word breaks or case, matched as they are
_PERSON_RECORD_OTHER = (
    r"कर्मचारी|छात्र|सदस्य|मेहमान|अतिथि|ड्राइवर|मरीज़|मरीज|الموظف|موظف|الطالب|طالب|العضو|عضو|"
    r"النزيل|الضيف|ضيف|السائق|المريض|员工|員工|职员|職員|学生|學生|学号|學號|会员|會員|住客|客人|"
    r"司机|司機|病人|社員|従業員|生徒|会員|宿泊者|運転手|직원|학생|학번|투숙객|기사"
)
_PERSON_ID = compile_cached(
    # ("社員ID EMP-20417", "员工ID：E-2291", "직원 ID 4471": the id labelled as such)
    r"(?:" + _PERSON_RECORD_OTHER + r")\s*"
    r"(?:(?:رقم|号码|號碼|编号|編號|番号|번호|नंबर|संख्या|ID|Id|id)\s*)?"
    r"[:：#№]?\s*((?=[\w-]*\d)[A-Za-z]{0,6}[-_]?\d[\w-]{2,})",
)
_PERSON_START = compile_cached(rf"(?:{_PERSON_RECORD}|{_PERSON_RECORD_OTHER})", re.IGNORECASE)
# The user's own, or their family's ("my son's student ID"), named just before.
_MINE_BEFORE = compile_cached(
    r"\b(my|our|mine|mi|mis|mein\w*|mon|ma|mes|meu|minha|mio|mia|min|mitt|mijn|mój|moja|moje|"
    r"můj|muj|mého|meho|benim|saya|aku|tôi|của tôi|мой|моя|моё|мои)\W+"
    r"(?:[^\W\d_]+(?:'s|’s|s')?\W+){0,2}$|"
    # ... in the scripts without word breaks: "私の社員ID", "我的员工编号", "제 직원 번호"
    r"(?:私|僕|俺|わたし|自分|我|我们|我們|本人)(?:の|的)\s*$|(?:^|\s)(?:내|제|나의|저의|우리)\s*$",
    re.IGNORECASE,
)


# "for account acct_1042", "Benutzer-ID kl_44", "client n° 7731", "customer 55021's file": an
# id-looking token (letters with digits or an underscore; bare digits only after a number mark
# or before a record word) after an account word that is not the user's own ("my account").
# (\b first: every use is followed by a word that starts at a boundary, and the engine then
# looks behind only there, not at each letter; one lookbehind for the words of each length)
_OWNER_WORDS = (
    *("my", "our", "mi", "mein", "meine", "mon", "meu", "mio", "min", "moje", "mojego"),
    *("můj", "mého", "mém", "svého", "svém", "mijn", "minha", "mia", "mitt"),
    *("moim", "mojej", "swojego", "swoim", "benim", "naszego", "naszym"),
    *("with", "from", "via", "using", "the", "del", "do", "da", "des", "dem"),
)
_NOT_MINE = r"\b" + "".join(
    rf"(?<!\b(?:{'|'.join(w for w in _OWNER_WORDS if len(w) == size)}) )"
    for size in sorted({len(w) for w in _OWNER_WORDS})
)
_ACCOUNT_WORD = (
    r"\b(?:account|user|profile|customer|client|member|cuenta|usuario|cliente|konto|benutzer|"
    r"kunden?|nutzer|compte|utilisateur|conta|usuário|utente|användar|användare|аккаунт\w*|"
    r"пользовател[ья]|gebruiker|użytkownik\w*|kullanıcı\w*|pengguna|membre|miembro|membro|"
    r"mitglied|користувач[аі]?|patient|paciente|paziente|patiënt|pacjent\w*|subscriber|"
    r"abonn[ée]e?|abonnent\w*|assinante|abbonat[oa]|tenant|inquilin[oa]|mieter\w*|"
    r"клиент|пациент\w*|абонент\w*|アカウント|ユーザー|患者|계정|사용자|고객|환자|회원|"
    # Polish inflects: "dla konta firma_admin", "na koncie dział_it"
    r"kont(?:a|u|em)|koncie|usuaria|kundenakte|kundenkonto|müşteri kaydı|客户|客戶|顧客|यूज़र|"
    r"यूजर|المستخدم|العميل|"
    r"hesap|hesabı|tài khoản|tai khoan|người dùng|nguoi dung|χρήστ\w*|πελάτ\w*|pelanggan|akun|"
    r"profiili\w*|tili(?:lle|llä|ltä|n|ä)?|"
    # inflected and feminine forms: "λογαριασμό", "l'utilisatrice", Swedish "kontot"
    r"λογαριασμ\w*|utilisatrice|kontot|kontoet|kontos|"
    # Czech and Slovak "účet" in its cases, Ukrainian and Russian "профіль", "акаунт"
    r"účet|účtu|účtem|účty|účte|профіл[ьюіяе]|профил[ьюяе]|акаунт\w*|"
    # Czech and Slovak "uživatel", "používateľ" in their cases ("Profil uživatele petr.novak"),
    # and "Profil" (German, Czech, Polish, French ...) in its cases
    r"(?:u[žz]ivatel\w*|pou[žz][íi]vate[lľ]\w*|profil(?:u|em|a|o|e|i)?|profiel)(?![^\W\d_])|"
    # Hebrew joins "the", "for", "to" to the word: "עבור המשתמש dov_r", "לחשבון"; Persian
    r"[הלב]?משתמשת?|[הלב]?חשבון|[הלב]?לקוח|[הלב]?פרופיל|(?:حساب\s+)?کاربری?|پروفایل|"
    # a profile in the other scripts: "प्रोफ़ाइल", "プロフィール", "프로필"
    r"प्रोफ़ाइल|प्रोफाइल|अकाउंट|プロフィール|프로필|"
    # Arabic in the feminine and with "for": "ملف المستخدمة sara_k", "للمستخدم"
    r"[لب]?لمستخدمة?|المستخدمة|"
    rf"(?:{_PERSON_RECORD})(?![^\W\d_]))"
)
# "the user with the id kev_22", "χρήστη με αναγνωριστικό nikos_p88": the id named as such
_WITH_ID = (
    r"(?:(?:with|με|con|avec|mit|com|met|med|z|с)\s+(?:the|το|el|la|l'|der|dem|o|a|het|de)?\s*"
    r"(?:id|identifier|username|user ?name|handle|αναγνωριστικό|όνομα χρήστη|identificador|"
    r"identifiant|kennung|benutzername|nome utente|identificatore|gebruikersnaam|"
    r"användarnamn|идентификатором|логином)\s*[:=]?\s*)"
)
_NUMBER_MARK = r"(?:#|no\.?|nr\.?|n°|nº|№|number|número|nummer|numéro|numero|номер|رقم)"
_ACCOUNT_TOKEN = compile_cached(
    rf"(?:{_NOT_MINE}{_ACCOUNT_WORD}[\s-]*(?:{_NUMBER_MARK}|id|{_WITH_ID})?|"
    # "the user with the id kev_22": an account named by its id is never the user's own, "the"
    # before it or not
    rf"{_ACCOUNT_WORD}\s*{_WITH_ID})\s*[:=]?\s*"
    # (whose, then the id in brackets: "tài khoản của mẹ (me_lan_1958)", not "của tôi": mine)
    r"(?:(?:of|de|von|di|do|da|van|du|del|של)\s+|của\s+(?!tôi|mình|tớ|tao|em\b)(?:[^\W\d_]+\s+)?[^\W\d_]+\s*\(\s*)?"
    r"(?:[«“\"'‘]\s*)?@?"
    r"((?=[\w-]*[A-Za-z])(?=[\w-]*[\d_])[A-Za-z][\w-]*\d[\w-]*|(?=[\w-]*[A-Za-z])[A-Za-z]+_[\w-]+|"
    r"[a-z]+(?:\.[a-z0-9_]+)+(?:-[a-z0-9]+)*(?=[\s),;:.\]】」]|$|[\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]))|"
    # "add to account jessica.m@mail.com", "também na conta rafa@…", "auch im Konto lena@…",
    # "aussi dans le compte …": a write aimed at an account by its address
    r"\b(?:to|into|in|for|under|onto|na|no|em|para|pra|pro|en|al|dans|sur|pour|au|im|ins|auf|"
    r"f[üu]r|nel|sul|nell'|per|op|voor|naar|w|do|dla|na|till|på|i|för|ke|di|untuk|в|на|для|"
    r"także|też|also|auch|aussi|también|também|anche|ook|även)\s+"
    r"(?:(?:the|la|le|el|das|dem|den|die|il|l'|o|a|het|de|lo)\s*)?(?:account|profile|user|memory|"
    r"conta|cuenta|compte|konto|kontos|kontot|konta|koncie|conto|perfil|profil\w{0,2}|profiel|"
    r"akun|hesab\w*|аккаунт\w*|профил\w*)\s+(?:(?:of|de|do|da|von|di|del|du)\s+)?"
    r"([\w.+-]+@[\w-]+\.[\w.]+)|"
    # ... the account word after the address: "rafa@… hesabına da", "rafa@…のアカウントにも"
    r"([\w.+-]+@[\w-]+\.[\w.]+)\s*(?:hesab[ıi]n[ae]|の?\s*アカウント(?:に|へ)|계정에|"
    r"(?:的)?(?:账号|帳號|账户|賬戶)(?:里|裡|上|中)?(?:也)?)|"
    rf"(?:^|(?<=[\n.]\s))(?:account|profile|konto|cuenta|compte|conta|conto|hesap|"
    r"tài khoản)\s+([\w.+-]+@[\w-]+\.[\w.]+)\s*[:：]|"
    # Thai: "บันทึกลงบัญชี nattapong.w@... ด้วย" (into the account ..., too)
    r"(?:ลง|ใน|เข้า|ไปที่|ไปยัง)บัญชี(?:ผู้ใช้)?\s*([\w.+-]+@[\w-]+\.[\w.]+)|"
    # ... or as a bracketed label: "[계정: minji.park@…]", "(Konto: lena@…)"
    r"[\[(（【]\s*(?:account|profile|konto|cuenta|compte|conta|conto|hesap|tài khoản|계정|"
    r"アカウント|账号|帳號|账户|аккаунт)\s*[:：]\s*([\w.+-]+@[\w-]+\.[\w.]+)\s*[\])）】]|"
    rf"{_NOT_MINE}{_ACCOUNT_WORD}\w{{0,3}}\s*(?:(?:mit der|mit|with the|with|con el|con|avec l'|"
    rf"avec|com o|com|met|z|с)\s+)?(?:{_NUMBER_MARK}|[_-]?id\b|ID)\s*[:=：]?\s*"
    r"(\d{3,}|\d+(?:-\d+)+)|"
    # "Cliente 77812 aceitou", "customer 55021 agreed": a number after a word for someone whose
    # records these are (not "account", whose number may be the user's own)
    rf"{_NOT_MINE}\b(?:customer|client|cliente|kunde|kundin|patient|paciente|tenant|member|"
    r"subscriber|usuario|usuário|utente|user|gebruiker|benutzer|nutzer|utilisateur|abonn[ée]e?|"
    r"abonnent\w*|assinante|abbonat[oa]|"
    r"użytkownik|kullanıcı|klient|клиент|пациент|пользователь|usuaria|müşteri kaydı|müşteri|"
    r"kundenakte|यूज़र|यूजर|المستخدم|العميل|客户|客戶|顧客|"
    rf"(?:{_PERSON_RECORD})(?![^\W\d_]))\s+(?:{_NUMBER_MARK}\s*)?(\d{{3,}}|\d+(?:-\d+)+)\b|"
    # "Account 5510 (Dana): ...": an account number with someone's name on it
    rf"{_NOT_MINE}\b(?:account|konto|cuenta|compte|conta|conto|rekening)\s+(?:{_NUMBER_MARK}\s*)?"
    r"(\d{3,}|\d+(?:-\d+)+)\s*\((?-i:[A-Z])[^\W\d_]+(?:\s+(?-i:[A-Z])[^\W\d_]*)?\)|"
    # ... a profile or a card of a service, its number, and whose it is: "Profilo tessera
    # farmacia 0044-8812 (mamma Giuliana)", "profile loyalty card 5521 (my dad Tom)"
    rf"{_NOT_MINE}\b(?:profil\w{{0,2}}|perfil|profiel|profile)\s+(?:[^\W\d_]+\s+){{0,3}}"
    rf"(?:{_NUMBER_MARK}\s*)?(\d{{3,}}|\d+(?:-\d+)+)\s*\((?:[^\W\d_]+\s+){{0,2}}"
    r"(?-i:[A-Z])[^\W\d_]+\)|"
    rf"{_NOT_MINE}{_ACCOUNT_WORD}\s+(\d{{3,}})(?:'s|’s)?\s+(?:file|record|profile|account|notes|"
    r"ticket|memory|case|history|dossier)\b|"
    # whose, then its id in brackets: "حساب أخي أحمد (ahmad_k)", "मेहमान प्रोफ़ाइल (guest_01)"
    # (not the user's own: "tài khoản của tôi (huy_92)", "मेरी प्रोफ़ाइल", "cuenta mía")
    rf"{_NOT_MINE}(?:{_ACCOUNT_WORD}|[لب]?حساب|الحساب)"
    r"(?:\s+(?!(?:tôi|mình|tớ|tao|mía|mío|mine|meu|minha|my|mijn|mitt|мой|моя|моего|моей|"
    r"मेरा|मेरी|मेरे|हमारा|हमारी|हमारे)(?![^\W\d_]))[^\W\d_]+){0,3}\s*[(（]\s*"
    r"((?=[\w.-]*[\d_])[A-Za-z][\w.-]*[A-Za-z0-9])\s*[)）]",
    re.IGNORECASE,
)
# Writes aimed at other users' memories: "save in their memory" for every new sign-up,
# "save to all accounts".
_OTHERS_MEMORY = compile_cached(
    r"\b(save|store|write|put|add|record|copy|push|sync|apply)\w*\b[^.!?\n]{0,40}\b(in|into|to|"
    r"for|across)\s+(their\s+(memor(y|ies)|profiles?|accounts?)|(each user'?s?|every user'?"
    r"s?|other "
    r"users'?|all (the )?(users'?|accounts|profiles))\s*(memor(y|ies)|profiles?|accounts?|n"
    r"otes)?)\b|\b(every|each|all|any)\s+(new\s+)?"
    r"(users?|accounts?|customers|members|sign-?ups?)\s+(who|that)\s+(signs? up|joins?|registers?)",
    re.IGNORECASE,
)
# "user:dave", "user bob", "user_42"; not "user_project" (the user's project).
_SUBJECT_USER = compile_cached(
    r"^\s*(?:(?:account|customer|client|tenant|member|patient|profile)\s*[:#@]\s*(\S+)|"
    r"(?:user|用户|用戶)(?:\s*[:#@]\s*(\S+)|\s+(\S+)|[_-]+(\S*\d\S*)))\s*$",
    re.IGNORECASE,
)
# A subject that reads as an account id ("alice_02", "user123"), not a person's name.
_SUBJECT_ID = compile_cached(
    r"^\s*([a-z][a-z0-9]*_[a-z0-9_]*\d[a-z0-9_]*|user\d+|[a-z]{1,3}-?\d+|[\w.+-]+@[\w-]+\.[\w.]+|"
    r"[a-z]\.[a-z]{2,}\d*)\s*$",
    re.IGNORECASE,
)
_SUBJECT_EVERYONE = compile_cached(
    r"^\s*(all|every|each|any)[ _-]?(users?|accounts?|customers|members|profiles|one|body)\s*$|"
    r"^\s*(everyone|everybody|users|global|default)\s*$",
    re.IGNORECASE,
)
_NAMED_SESSION = [
    compile_cached(r"\bsession[_ -]?id\s*[:=]\s*[\"'`]?([\w.-]{2,64})", re.IGNORECASE),
    # "session_id 55ab-e1" without a sign: an id with a digit
    compile_cached(r"\bsession[_ -]?id\s+[\"'`]?((?=[\w.-]*\d)[\w.-]{2,64})", re.IGNORECASE),
    compile_cached(r"\b((?:ses|sess|session)[_-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{2,})\b"),
    # "the customer's session s-4471", "sessão do cliente s-4471", "Sitzung 8812"
    compile_cached(
        r"\b(?:session|sesión|sessão|sitzung|séance|sessione|sessionen|сесси[яиюей]|"
        r"сесі[яїюі]|сеанс\w*|chat|conversation|thread|"
        # Indonesian, Polish, Dutch, Turkish, Czech, Romanian, Vietnamese: "ke sesi 7c1e-22b"
        r"sesi|sesj[aiąęe]|sessie|oturum\w*|relac[ei]|sesiun\w*|phiên|phien)\s+#?"
        r"(?:(?:do|del|de la|du|des|der|della|of the|of)\s+)?(?:\w+\s+)?"
        # ... or an id of letters and digits in dashed groups ("session 8f3a-22"), or a hex
        # number after a sign ("сесії чату #7f3a")
        # (a year is no id: "sesja egzaminacyjna 2024")
        r"((?!(?:19|20)\d\d(?![\w-]))[a-z]{0,4}[-_#]?\d{3,}[\w-]*|"
        r"(?=[\w-]*\d)(?=[\w-]*[a-z])[a-z0-9]+(?:[-_][a-z0-9]+)+|"
        r"#(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}\b|"
        # ... or a hex id of four or more without it ("session 7f3a9c2e", "sessie 7f3a")
        r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}\b)",
        re.IGNORECASE,
    ),
    # ... and in the scripts without word breaks: "セッション 7c1e-22b に", "会话ID：a3f-9921",
    # "세션 번호 4471에" (not a price or a time: "セッション 1500円")
    compile_cached(
        r"(?:セッション|会话|會話|세션)\s*(?:(?:ID|id|番号|编号|編號|번호)\s*[:：#]?\s*(\d{3,})|"
        r"[:：#]?\s*((?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+|"
        r"(?:[A-Za-z]{1,4}[-_#]?|#)\d{3,}[A-Za-z0-9_-]*))"
    ),
]
# Every one of a group, and the groups an organisation keeps records of, for the headings above.
_ALL_WORD = (
    r"(?:all|every|each|tutti|tutte|todos|todas|tous|toutes|alle|allen|aller|alla|wszystkich|"
    r"wszyscy|всех|всем|усіх|всіх|tüm|bütün|semua|tất cả|todos os|todas as|kaik(?:ki|i)\w*)"
)
_GROUP_WORD = (
    r"(?:users|customers|clients|employees|staff|members|students|colleagues|parents|tenants|"
    r"residents|guests|subscribers|patients|volunteers|workers|team members|"
    r"i clienti|clienti|dipendenti|utenti|membri|studenti|colleghi|soci|ospiti|"
    r"clientes|empleados|usuarios|miembros|alumnos|colegas|socios|funcionários|usuários|"
    r"membros|alunos|les clients|employés|salariés|utilisateurs|membres|élèves|collègues|"
    r"mitarbeiter\w*|kunden|nutzer\w*|mitglieder\w*|kollegen|kolleginnen|schüler\w*|"
    r"medewerkers|klanten|gebruikers|leden|collega's|studenten|werknemers|"
    r"pracowników|klientów|użytkowników|członków|anställda|kunder|användare|medlemmar|"
    r"сотрудник\w*|клиент\w*|пользовател\w*|участник\w*|співробітник\w*|"
    r"çalışan\w*|müşteri\w*|kullanıcı\w*|üye\w*|karyawan|pelanggan|pengguna|nhân viên|"
    r"khách hàng|käyttäj\w*|asiaka\w*|asiakk\w*|jäsen\w*)"
)
_OTHER_USERS = compile_cached(
    r"\b(other|another|all (the )?other|every other|different|second|secondary|alt|work|"
    r"partner'?s?|wife'?s|husband'?s)\s+(accounts?|profiles?)\b|"
    r"\b(all (the )?other|every other|second|secondary|alt|work|partner'?s?|wife'?s|"
    r"husband'?s)\s+(users?|user'?s)\b|\ball users'? "
    r"(memor|data|notes|profiles)|\b(for|across)\s+(all|every|each|any)( (of )?the)?"
    r" (users|user|profiles|tenants)\b|\b(all|every|each) "
    r"(users|accounts|customers|clients|members|tenants)'?s? (default|memory|memories|profiles?|"
    r"settings)|\bdefault for (everyone|everybody)\b|"
    # "applies to every member's assistant", "all household members' assistants"
    r"\b(every|each|all( the)?)\s+([\w-]+\s+)?(members?|users?|residents?|tenants?|people|"
    r"one)('s|s'|’s|')\s+(assistants?|profiles|accounts|memor(y|ies))\b|"
    r"\beveryone'?s\s+(assistants?|profiles|accounts)\b|"
    r"其他用户|其他用戶|别的用户|別的用戶|另一个用户|另一個用戶|所有用户的(记忆|數據|数据|默认|默認|设置|設置)|"
    r"(为|為|给|給|对|對|帮|幫)(所有|全部|每个|每個|每一个|每一個)(的)?(用户|用戶)|我的另一个(账号|帳號|账户|賬戶)|"
    r"todos los usuarios|otra cuenta|mi otra cuenta|alle (benutzer|nutzer|kunden)|anderes? konto|"
    r"tous les utilisateurs|autre compte|todos os usu[aá]rios|outra conta|tutti gli utenti|altro "
    r"account|alla anv[aä]ndare|andra konto|"
    # every user of the system in Vietnamese, Indonesian, Turkish, Dutch, Polish: "cho tất cả
    # người dùng", "untuk semua pengguna", "tüm kullanıcılar için", "alle gebruikers"
    r"(?:t[aấ]t c[aả] (?:m[oọ]i )?|m[oọ]i |to[aà]n b[oộ] )ng(?:ườ|uo)i d[uù]ng|semua pengguna|"
    r"t[uü]m kullan[ıi]c[ıi]\w*|alle gebruikers|wszystki\w* u[zż]ytkownik\w*|"
    # ... Czech, Korean with a word between: "do paměti všech uživatelů", "모든 사내 사용자에게"
    r"\bv[šs]e(?:ch|m|chny) u[žz]ivatel\w*|모든\s+(?:[가-힣]+\s+){0,2}사용자|"
    # each account in Ukrainian and Russian: "кожен обліковий запис класу", "каждый аккаунт"
    r"\bкож\w+ обліков\w+ запис\w*|\bусіх облікових записів|\bкажд\w+ аккаунт\w*|"
    r"\bвсех аккаунтов|"
    # the memory of each of a group: "dans la mémoire de chaque élève", "en la memoria de cada
    # alumno", "nella memoria di ogni studente", "na memória de cada aluno"
    r"\bm[ée]moire de (?:chaque|tous les|toutes les)\s|\bmemoria de (?:cada|todos los|todas las)\s|"
    r"\bmemoria di (?:ogni|tutti i|tutte le)\s|\bmem[óo]ria de (?:cada|todos os|todas as)\s|"
    # a range of accounts: "comptes eleve-4eb-01 à eleve-4eb-28", "accounts u101 to u140"
    r"\b(?:comptes|accounts|cuentas|contas|konten|account)\s+[\w.-]*\d[\w.-]*\s+"
    r"(?:à|to|a|bis|até|al|-|–)\s+[\w.-]*\d|"
    # each user of the system: "dla każdego użytkownika workspace'u", "para cada usuario",
    # "für jeden Nutzer", "pour chaque utilisateur", "per ogni utente", "voor elke gebruiker"
    r"\b(?:dla|w pamięci) każd\w* u[żz]ytkownik\w*|\bpara cada usuari[oa]\b|"
    r"\bf[üu]r jeden (?:nutzer|benutzer)\b|\bpour chaque utilisat(?:eur|rice)\b|"
    r"\bper ogni utente\b|\bvoor elke gebruiker\b|\bf[öo]r varje anv[äa]ndare\b|"
    r"\bдля каждого пользовател\w*|\bher kullan[ıi]c[ıi] i[çc]in\b|\buntuk setiap pengguna\b|"
    r"\bcho m[ỗo]i ng(?:ườ|uo)i d[ùu]ng\b|(?:给|為|为)每(?:个|個|位)(?:用户|用戶)|"
    r"все(х|м)? пользовател|друго(й|м) аккаунт|"
    r"(全て|すべて|全部)のユーザー|全ユーザー|別のアカウント|모든 사용자|다른 계정|"
    # the user's other account, written to "too": "仕事用アカウント（…）にも", "工作账号也记一下",
    # "업무용 계정에도"
    r"(仕事用|仕事の|会社の|サブ|もう一つの|もうひとつの|別|二つ目の|2つ目の)の?アカウント"
    r"[^。！？\n]{0,40}?(にも|へも)|"
    # "diğer hesabım (…) için de", "mijn andere account", "moje drugie konto": the user's other
    # account in more languages
    r"\b(di[gğ]er|[oö]b[uü]r|ikinci|yedek)\s+hesab[ıi]m\w*|\bmijn (andere|tweede) account\w*|"
    r"\b(tweede|zweite[sn]?|deuxi[eè]me|segund[oa]|second[oa]|andra)\s+(account|konto|compte|"
    r"cuenta|conta|conto|profiel|profil)\b|"
    # whoever uses a shared session or device next: "Note for the next user of this kiosk",
    # "leave a note for whoever logs in next", "Till nästa användare av bibliotekets dator"
    r"\b(the )?next (user|person|guest|visitor|customer)s? (of|on|at|using|who)\b|"
    r"\bn[äa]sta anv[äa]ndare|\bn[æa]ste (?:bruger|bruker)|\bn[äa]chsten? (?:benutzer|nutzer)|"
    r"\bprochain(?:e)? utilisat(?:eur|rice)|\b(?:siguiente|pr[óo]ximo) usuari[oa]|"
    r"\bpr[óo]ximo usu[áa]rio|\bprossim[oa] utente|\bvolgende gebruiker|"
    r"\bnast[eę]pn\w* u[żz]ytkownik\w*|следующ\w* пользовател\w*|\bsonraki kullan[ıi]c[ıi]|"
    r"ng(?:ườ|uo)i d[uù]ng ti[eế]p theo|\bpengguna berikutnya|"
    r"次のユーザー|下一(?:个|個|位)(?:用户|用戶)|다음 사용자|"
    # every profile of a shared plan: "для всех профилей семейной подписки", "para todos los
    # perfiles", "für alle Profile"
    r"\b(?:for|para|pour|f[üu]r|per|voor|f[öo]r|dla|для|untuk)\s+"
    r"(?:todos (?:los|os)|tous les|alle|tutti i|alla|wszystkich|всех|каждого|tüm|semua)"
    r"\s+(?:profiles|perfiles|perfis|profils|profile|profili|profielen|profiler|"
    r"профил\w*|profiller\w*|profil)\b|"
    # every new sign-up: "for each new user of the bot", "для каждого нового пользователя",
    # "cada nuevo usuario", "jeden neuen Nutzer", "每个新用户", "모든 신규 사용자"
    # (users of a system, not a shop's customers: "for every new customer I make a card")
    r"\b(?:for|to)\s+(?:every|each|all|any)\s+new\s+(?:users?|sign-?ups?)\b|"
    r"(?:для|каждому|всем|любому)\s+(?:каждого|всех|любого|каждому|всем)?\s*нов\w+\s+"
    r"пользовател\w*|"
    r"\b(?:para|a|per|pour|à)\s+(?:cada|todos los|todos os|ogni|tutti i|chaque|tous les)\s+"
    r"(?:nuevos?|novos?|nuovi|nuovo|nouvel|nouveaux)\s+(?:usuari[oa]s?|usuári[oa]s?|utent[ei]|"
    r"utilisateurs?)\b|"
    r"\b(?:für|an)\s+(?:jede[mnr]?|alle[n]?)\s+neuen?\s+(?:nutzer\w*|benutzer\w*)\b|"
    r"(?:每个|每個|每位|所有)(?:的)?新(?:用户|用戶)|"
    r"(?:모든\s*)?신규\s*사용자(?:마다|에게|들에게)|"
    r"(?:すべての|全ての|全)?新規ユーザー(?:全員|ごと|に)|"
    # the profiles of every member: "i profili di tutti i membri del piano", "los perfiles de
    # todos los miembros"
    r"\b(?:profil[io]|perfis|perfiles|profils|profile)\s+(?:di|de|des|dos|das|of|von)\s+"
    r"(?:tutti|todos|todas|tous|toutes|all|allen)\s+(?:i\s+|los\s+|las\s+|les\s+|os\s+|as\s+|"
    r"the\s+|den\s+)?(?:membri|miembros|membres|membros|members|mitglieder\w*|utenti|usuarios|"
    r"usuários|utilisateurs|users)\b|"
    # ids, then the accounts they are: "emre_k, selin_k ve deniz_k hesapları için" (two ids or
    # more: "the Office365 account" is one service's; each id read once, from its start)
    r"(?<![\w.])(?<!,)(?<!,\s)(?=[\w.]*[_\d])[A-Za-z][\w.]*+(?:\s*,\s*[\w.]++)*+\s*,?\s+"
    r"(?:ve|and|und|et|y|e|en|i|och|og)\s+[\w.]++\s+(?:hesap\w*|accounts|konten|comptes|"
    r"cuentas|contas)\b|"
    # ... or one id with a dot or "_" and the Turkish account word after it: "ayse.work
    # hesabı için", "emre_k hesabına"
    r"(?<![\w.-])(?=[\w.]*[._\d])[A-Za-z][\w.]*+(?<!\.)\s+hesab[ıi](?:n[ae]|nda)?\s+(?:i[çc]in|de|da)\b|"
    # an id the write applies to as well: "【u48_workにも適用】", "u48_work에도 적용"
    # (the id in ASCII: "u48_workにも" runs on as word characters)
    r"(?<![\w.-])(?=[A-Za-z0-9_.-]*[\d_])[A-Za-z][A-Za-z0-9_.-]*+\s*(?:にも|へも|에도)\s*"
    r"(?:適用|保存|反映|追加|記録|적용|저장|반영)|"
    # everyone in a shared workspace: "[workspace: Foxglove, all members]"
    r"\b(?:workspace|team space|shared space)\b[^.!?\n]{0,30}\b(?:all|every|each)\s+"
    r"(?:members?|users?)\b|"
    r"\bwhoever (logs|signs) (in|on) (next|after)|\bthe next person to (use|log|sign)\b|"
    r"\b(moje|mojego|moim|na moje) (drugi\w*|inn\w*) kon(t\w*|cie)\b|"
    r"\b(t[aà]i kho[aả]n|akun) (kh[aá]c|lain|kedua) (c[uủ]a (m[iì]nh|t[oô]i)|saya)|"
    r"(工作|公司|另一个|另一個|第二个|第二個|小号|小號)的?(账号|帳號|账户|賬戶|帐户)"
    r"[^。！？\n]{0,40}?(也|里也|裡也)|(업무용|회사|다른|두 번째|부)\s*계정[^.!?\n]{0,30}?에도|"
    r"\ball tenants\b|\bevery tenant\b|\bglobal memory\b|"
    r"\b(?:apply|save|copy|add|sync|write|store)\w*\s+(?:this\s+|it\s+)?(?:to|for|in|into)\s+"
    r"(?:all|every|each)\s+(?:[\w-]+\s+){0,2}?(?:accounts|profiles|users)\b|"
    # every user in Hebrew, Arabic, Hindi, Greek: "לכל המשתמשים", "لجميع المستخدمين"
    r"כל המשתמשים|(?:جميع|كل|لجميع|لكل)\s+المستخدمين|सभी (?:उपयोगकर्ताओं|यूज़र्स|यूजर्स)|"
    r"όλους τους χρήστες|όλοι οι χρήστες|"
    # a team's or a workspace's memory, every member's assistant
    r"\b(workspace|team|channel|org|organi[sz]ation|company|group|department)\b[^.!?\n]{0,30}"
    r"\bshared\s+memor(y|ies)\b|\b(team|workspace|company|org|organi[sz]ation)(-wide)?\s+"
    r"memor(y|ies)\b|\beveryone'?s\s+(assistants?|ai|bots?|memor(y|ies))\b|"
    r"(memoria compartida|mémoire partagée|gemeinsame[nrs]? (speicher|gedächtnis)|"
    r"memoria condivisa|memória compartilhada|gedeeld\w* geheugen|общ\w+ памят\w*|"
    r"共享记忆|共享記憶|共有メモリ|공유 메모리)|"
    # a note headed to a whole group in any language: "Per tutti i clienti del negozio:",
    # "Voor alle medewerkers:", "Für alle Mitarbeiter:", "Для всех сотрудников:"
    rf"^\s*(?:\w+\s+)?{_ALL_WORD}\s+(?:\w+\s+){{0,2}}{_GROUP_WORD}\b[^:：\n]{{0,40}}[:：]|"
    # a note headed to every user of the system: "All users on this workspace: ...", "所有用户："
    r"^\s*(for\s+)?all (the )?users\b[^:\n]{0,40}:|"
    r"^\s*(所有|全体|全體|全部)的?(用户|用戶)的?(默认|默認|设置|設置|通知)?\s*[：:]|"
    # "alle anderen Nutzer", "다른 모든 계정", "tous les autres utilisateurs": every account
    r"\balle[nr]? (anderen )?(benutzern?|nutzern?|konten|accounts)\b|\balle (andere )?(gebruikers|"
    r"accounts)\b|"
    r"\btous les (autres )?(utilisateurs|comptes)\b|\btoutes les (autres )?comptes\b|"
    r"\btodos los (demás )?(usuarios|perfiles)\b|\btodas las (demás )?cuentas\b|"
    r"\btodas as (outras )?contas\b|\btutti gli (altri )?(utenti|account)\b|"
    r"\balla (andra )?(användare|konton)\b|wszystki\w* (pozostał\w* |inn\w* )?(użytkownik\w*|"
    r"kont\w*)|"
    r"\b(tüm|bütün) (diğer )?(kullanıcı\w*|hesap\w*)|\bsemua (pengguna|akaun|akun)\b|"
    r"всем (другим |остальным )?пользовател|(всім|усім) (іншим )?користувач|"
    # the records of every customer: "모든 고객 메모에", "すべての顧客のメモ", "所有客户的备注",
    # "in every client's notes"
    r"(모든|전체)\s*(고객|손님|회원|사용자)\s*(의\s*)?(메모|기록|프로필|계정|노트)|"
    r"(すべての|全ての|全)(顧客|お客様|利用者|会員)の?(メモ|記録|プロフィール|ノート)|"
    r"(所有|全部|每个|每個|每位)(客户|客戶|顾客|顧客|会员|會員)的?(备注|備註|记录|記錄|档案|檔案|笔记|筆記)|"
    r"\b(all|every|each)\s+(\w+\s+)?(customers?|clients?|members?|users?|tenants?)('s|s'|’s)?\s+"
    r"(notes|records|files|profiles|memor(y|ies))\b|"
    # "For all Metro desk reporters' memories": whoever they are, their memories or profiles
    r"\b(all|every|each)\s+(?:[\w-]+\s+){0,3}?[\w-]+(?:s'|’s|'s)\s+(?:memor(?:y|ies)|profiles|"
    r"accounts)\b|"
    r"(다른\s*)?(모든|전체)\s*(사용자|계정|회원)|다른\s*(사용자|계정)|他のユーザー|すべてのアカウント|"
    r"全てのアカウント|所有(账号|帳號|账户|賬戶)|每个用户|每個用戶|"
    # "dans le profil de tous les membres": the records of every member
    r"(profil\w*|mémoire|memoria|memória|gedächtnis|speicher|perfil\w*|profilo|minne|"
    r"памят\w*|профил\w*|geheugen)[^.!?\n]{0,12}\b(de |di |do |von |der |van |aller )?(tous les|"
    r"toutes les|todos los|todas las|todos os|todas as|tutti gli|tutte le|alle[rn]?|alla|всех|"
    r"wszystkich)\s+(\w+\s+)?(membres|membros|miembros|membri|mitglieder|medlemmar|leden|"
    r"участников|członków|clients|clientes|kunden|klanten)\b|"
    # "All accounts: support hours are 8 to 8", "Family plan, all members: ...": a heading
    r"\b(all|every|each)\s+(?!my\b|our\b)([\w-]+\s+){0,3}?(users|accounts|members|customers|"
    r"clients|tenants|subscribers|profiles)\)?\s*[:：]|"
    # "共有ドライブ全員：", "团队所有成员：": a heading for every member of a shared space
    r"(全員|メンバー全員|全ユーザー|所有成员|所有成員|全体成员|全體成員)\s*[：:]|"
    # "for all the members of the workspace", not "for all the members of my running club"
    r"\b(for|to)\s+(all|every|each)\s+(the\s+)?(members|customers|clients|subscribers)\s+of\b"
    r"(?!\s+(my|our)\b)|"
    r"\b(in|into|to)\s+(the\s+)?(memory|memories|profile|account|notes)\s+of\s+(?!me\b|mine\b|"
    r"the user\b)|"
    # everyone this assistant serves, said without a word for users: "everyone on this
    # instance", "every person who chats here", "every profile on the server", "all of your
    # other conversations"
    r"\b(everyone|everybody|anyone|every (one|body|person|profile)|each (person|profile)|"
    r"all (the )?(people|profiles))\s+(who\s+(chats?|talks?|writes?|uses?|messages?)\s+"
    r"(here|with you|to you|this)|(on|using|across|of|in)\s+(this|the)\s+(instance|server|"
    r"platform|system|service|deployment|assistant|bot))\b|"
    r"\b(every|each|all|any)( of your)? other (conversations?|chats?|sessions?|threads?)\b|"
    r"\ball (of )?your other (conversations|chats|sessions|threads)\b|"
    r"(所有|每位|每个|每個|全部)(的)?(使用者|使用这个助手的人|使用這個助手的人|使用本助手的人)",
    re.IGNORECASE,
)


# "dans la session d'un autre utilisateur", "copy my notes to another user": another user, in
# a write that also names where it goes or what to do (a profile, a session, a note to save,
# to tell), not "another user on the forum recommended this drill".
_ANOTHER_USER = compile_cached(
    r"\b(other|another|different)\s+(users?|user'?s)\b|"
    r"\b(otro|otra) (usuari[oa]|perfil)\b|\bautre(s)? (utilisat(eur|rice)s?|profil)\b|"
    r"\band(er|ere|eren|eres)\w* (nutzer\w*|benutzer\w*|profil\w*)|\baltr[oaie] "
    r"(utent[ei]|profil[oi])\b|\boutr[oa]s? (usu[aá]ri[oa]s?|perfil)\b|\bandere "
    r"(gebruiker|gebruikers|profiel)\b|\binn(y|ego|ym|emu) (użytkownik\w*|profil\w*)|"
    r"\bbaşka (bir )?(kullanıcı\w*|profil\w*)|друг(ой|ого|ому|им) пользовател\w*|"
    r"他のユーザー|别的账号|別的帳號|다른 사용자|"
    # "(other customer)", "another client's", "un autre client": someone else's records
    r"\b(other|another|different)\s+(customers?|clients?|patients?|members?|subscribers?|"
    r"tenants?)\b|\b(otro|otra) (cliente|paciente)\b|\bautre(s)? (client|patient)s?\b|"
    r"\band(er|ere|eren|eres) (kunde\w*|patient\w*)",
    re.IGNORECASE,
)
_RECORD_WORDS = compile_cached(
    r"\b(perfil\w*|profil\w*|memori\w*|m[ée]moire|ged[äa]chtnis|speicher\w*|sesi[óo]n|"
    r"session\w*|sitzung|sess[ãa]o|cuenta|compte|konto|conta|account|notas|notes|notizen|note|"
    r"dati|donn[ée]es|datos|daten|dados|registr\w*|anot(a|ar|e|en|ad[oa]s?|aci[oó]n)|"
    r"enregistr\w*|vermerk\w*|guard\w*|salv\w*|"
    r"memorizz\w*|kaydet\w*|zapisz\w*|opslaan|noteer\w*|memor(y|ies)|data|records?|files?|"
    r"history|save|store|write|add|put|record|copy|update|tell|send|show|message|ticket|"
    r"case|log|called)\b|"
    r"запис\w*|сохран\w*|профил\w*|сесси\w*|памят\w*|记录|記錄|记到|記到|保存|档案|檔案|"
    r"プロフィール|記録|保存|프로필|기록|저장",
    re.IGNORECASE,
)


# "Call the user 'Sam'": the user's name given, not another account's id.
_NAMING = compile_cached(
    r"\b(call|calls|calling|name|named|address|refer to|known as|llama|llamar|nenne|nennen|"
    r"appelle|appeler|chiama|chame|chamar|kalla|зови|называй)\s+(the\s+|al\s+|den\s+|l')?$",
    re.IGNORECASE,
)


# "uses the Spotify account 'dj_rafa'", "her Instagram profile @mia.k": an account on another
# service, named by the brand before it, is how someone is known there, not an account here.
_SERVICE_BEFORE = compile_cached(
    r"(?:^|\s)(?!(?:User|Customer|Client|Member|Admin)\b)[A-Z][\w+.-]*\s+$"
)
_ACCOUNT_START = compile_cached(r"(?:account|profile|konto|cuenta|compte|conta)\b", re.I)
# "uses the family tablet under the profile 'lea_k'", "plays on the Xbox as user 'tomtom'": a
# profile on a device at home is how someone logs in there, not an account in this memory.
_DEVICE_BEFORE = compile_cached(
    r"\b(tablet|ipad|laptop|computer|pc|desktop|phone|console|switch|xbox|playstation|ps[45]|"
    r"tv|television|smart ?tv|kindle|e-?reader|chromebook|macbook|mac|router|tableta|tablette|"
    r"ordenador|ordinateur|computador|rechner|telefon|планшет\w*|ноутбук\w*|компьютер\w*)\b"
    r"[^.!?\n]{0,24}\b(under|as|with|using|on|via|con|sous|avec|unter|mit|como|comme|als|под)\s+"
    r"(the\s+|a\s+|her\s+|his\s+|their\s+|el\s+|la\s+|le\s+|das\s+|dem\s+|o\s+|il\s+)?$",
    re.I,
)


def _named_ids(text: str) -> list[str]:
    found = []
    for pattern in _NAMED_USER:
        for m in finditer(pattern, text):
            before = text[max(0, m.start() - 24) : m.start()]
            if _NAMING.search(before):
                continue
            if _ACCOUNT_START.match(text, m.start()) and (
                _SERVICE_BEFORE.search(before)
                or _DEVICE_BEFORE.search(text[max(0, m.start() - 60) : m.start()])
            ):
                continue
            if _PASSWORD_AFTER.match(text, m.end()):
                continue  # "管理员账号 admin，密码 ...": a login's name and its password
            found.append(next(g for g in m.groups() if g))
    return found


# An account name with its password right after it is a login to a device or a service (the
# router's "账号 admin，密码 ...", "username admin / password ..."), not another user here.
_PASSWORD_AFTER = compile_cached(
    r"\s*+[,，、;；/|]?\s*+(?:and\s+|und\s+|et\s+|y\s+|e\s+|и\s+|(?:the\s+|its\s+)?)"
    r"(?:password|passwort|kennwort|pass|pwd|contrase[nñ]a|clave|mot de passe|senha|"
    r"wachtwoord|l[oö]senord|has[lł]o|[sş]ifre\w*|parola|пароль|парол[ья]|κωδικός|"
    r"密码|密碼|口令|パスワード|비밀번호|비번)"
    # ... then the password itself, with a digit or a sign ("password reset" names no login)
    r"(?:\s*+(?:is|es|ist|est|é|è|:|：|=|是|为|為|は)?\s*+)[^\s,，。]*[\d!@#$%^&*_+=?~][^\s,，。]*",
    re.IGNORECASE,
)


# An account the conversation names as someone's ("she uses it as user anna_p", "account
# j.moreno.work"): an id-looking token (with "_", ".", "@" or digits) after an account word.
_CONTEXT_ACCOUNT = compile_cached(
    r"\b(?:user(?:name)?|account|profile|handle|user id|customer|client|member|cuenta|conta|"
    r"compte|konto|conto|perfil|profil|"
    # ... in other languages: "jeho uživatelské ID je petr.novak", "ihr Benutzername ist
    # anna.k", "su usuario es ana_r"
    r"u[žz]ivatel\w*|pou[žz][íi]vate[lľ]\w*|benutzer\w*|nutzer\w*|usuari[oa]|usuário|"
    r"utilisat(?:eur|rice)|utente|gebruiker\w*|u[żz]ytkownik\w*|pengguna|kullan[ıi]c[ıi]\w*|"
    # Swedish, Danish, Norwegian, Finnish: "användar-id erik_lind"
    r"användar\w*|anvandar\w*|bruger\w*|bruker\w*|käyttäjä\w*)"
    r"[\s-]*(?:id|name|jméno|jmeno|naam|nome|nom|adı|adi)?\s*"
    r"(?:[:=#]|\s(?:is|was|es|ist|est|é|è|är|je|jest|to|adalah|era|war))?\s*@?"
    r"([a-z][a-z0-9]*(?:[_.@][a-z0-9]+)+|[a-z]+\d+[a-z0-9_]*)\b",
    re.IGNORECASE,
)


_MINE = compile_cached(
    r"\b(my|our|mine|own|mi|mein|meine|mon|ma|meu|minha|mio|min|můj|muj|moje|mé|mój|moja|"
    r"mijn)\W+(\w+\W+)?$",
    re.I,
)


def _context_accounts(said: list[str]) -> set[str]:
    return set().union(*(_accounts_said(text[-4000:]) for text in said))


@lru_cache(maxsize=512)
def _accounts_said(text: str) -> frozenset[str]:
    """The accounts one message of the conversation names as someone's (cached: every write
    of a turn reads the same messages again)."""
    found = set()
    for m in finditer(_CONTEXT_ACCOUNT, text):
        before = text[max(0, m.start() - 40) : m.start()]
        if (
            not _MINE.search(before[-24:])
            and not _PASSWORD_AFTER.match(text, m.end())
            and not _BRAND_BEFORE.search(before)
        ):
            found.add(m.group(1).lower())
    # ... and an account the user names by its id: "аккаунта моего отца (id: papa_viktor)"
    found |= {n.lower() for n in _named_ids(text)}
    return frozenset(found)


# The user's request aimed at another record: "add to client #5521's notes", "schreib ins
# Benutzerkonto 3381", "계정 번호 22019 메모에 저장해", "store this under bob_smith": a write verb
# and a record word with its id (or a handle after "under"/"for"), not "my account". A write
# that repeats that id goes to someone else's record, even when the user asked for it.
_WRITE_VERB = compile_cached(
    r"\b(add|put|write|note|log|save|store|record|set|update|apply|append|file|enter|"
    r"schreib\w*|trag\w*|speicher\w*|notier\w*|vermerk\w*|füg\w*|ajout\w*|not\w*|"
    r"enregistr\w*|inscri\w*|añad\w*|agreg\w*|guard\w*|anot\w*|escrib\w*|registr\w*|"
    r"aggiung\w*|scriv\w*|salv\w*|annot\w*|adicion\w*|escrev\w*|grava\w*|gravar|lägg\w*|"
    r"skriv\w*|spara|"
    r"voeg\w*|zet|schrijf|noteer|sla|dodaj|zapisz|wpisz|ekle|yaz|kaydet|запиши|добавь|сохрани|"
    r"внеси|отметь)\b|写|記|记|添加|加上|保存|追加|書|メモ|저장|추가|기록|적어",
    re.IGNORECASE,
)
_RECORD_ID = compile_cached(
    r"(?<![\w.])(?!(?:my|our|mi|mein\w*|mon|ma|meu|minha|mio|mia|min|mitt)\s)"
    # (not a bare "account", "Konto", "cuenta": a bank account may be the user's own; nor a
    # ticket or a session, which the user has too)
    r"[^\W\d_]*(?:user account|customer account|benutzerkonto|nutzerkonto|kundenkonto|user|"
    r"profile|customer|client|member|patient|subscriber|abonn[ée]e?|benutzer|nutzer|kunde|"
    r"usuario|usuaria|usuária|cliente|paciente|utilisateur|utilisatrice|usuário|utente|"
    r"paziente|gebruiker|klant|użytkownik\w*|klient\w*|"
    r"kullanıcı\w*|müşteri\w*|пользовател\w*|клиент\w*|пациент\w*|аккаунт\w*|用户|用戶|"
    r"ユーザー|アカウント|顧客|患者|계정|사용자|고객|회원|환자)"
    # ... and its record between: "고객 티켓 #48213", "customer ticket 5512"
    r"(?:\s*(?:ticket|case|file|record|티켓|케이스|チケット|案件|工单|工單))?"
    r"(?:\s*(?:id|ID|#|no\.?|nr\.?|n°|nº|№|number|número|nummer|numéro|numero|номер|번호)"
    r")?[\s:=：#-]*"
    r"((?=[\w-]*\d)[A-Za-z]{0,6}[-_]?\d[\w-]{2,}|[a-z][a-z0-9]*_[a-z0-9_]+)",
    re.IGNORECASE,
)
# ... an @handle after "under" or "for" ("file it under @kev_d")
_HANDLE_TARGET = compile_cached(r"\b(?:under|for)\s+@([\w.]{3,})\b", re.IGNORECASE)
# A handle as the subject of what a person does ("bob_smith likes window seats"): an account,
# not a label ("travel_plans: Lisbon in May").
_HANDLE_SUBJECT = compile_cached(
    r"(?:^|(?<=[.!?\n]\s))@?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+(?:likes?|prefers?|wants?|loves?|"
    r"hates?|asked|says|said|moved|lives|works|agreed|paid|is allergic|"
    r"signed|cancell?ed|ordered|booked)\b",
    re.IGNORECASE,
)


def _whole_token(text: str, start: int, end: int) -> str:
    """The id with the record word it is glued to ("user0001", not "0001")."""
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return text[start:end].lower()


# Someone's handle, address or number as where a write goes: "for maria@corpmail.com: ...",
# "store against +44 7700 900123", "in @lena.k's notes", "Lin's memory (lin.w)". Not "add
# Tom's number +44 ... to my notes": there the number is what is written, not where.
# (a dotted name with a file's ending is a file: "notes.md", "main.py")
_FILE_END = (
    r"(?![\w.]*\.(?:md|txt|py|js|ts|pdf|docx?|xlsx?|pptx?|csv|json|ya?ml|toml|html?|png|jpe?g|"
    r"gif|zip|log|sh|ini|cfg|conf)\b)"
)
_ADDRESS = r"@[\w.]{3,}|[\w.+-]+@[\w-]+\.[\w.]+|\+\d[\d ()-]{7,}\d"
# after "for" or "under" a dotted name is a handle; "under travel_plans" is the user's label
_HANDLE = rf"({_FILE_END}@?[a-z][a-z0-9]*(?:\.[a-z0-9]+)+|{_ADDRESS})"
_ANY_HANDLE = rf"({_FILE_END}@?[a-z][a-z0-9]*(?:[._][a-z0-9]+)+|{_ADDRESS})"
_AIMED_AT = compile_cached(
    rf"\b(?:for|against|under|into|in)\s+{_HANDLE}(?=[\s:,;'’)]|$)|"
    rf"{_ANY_HANDLE}(?:'s|’s)\s+(?:\w+\s+)?(?:notes|memory|memories|profile|file|record|"
    r"account)\b|"
    r"(?:'s|’s)\s+(?:\w+\s+)?(?:notes|memory|memories|profile|file|record|account)\s*(?:too\s*)?"
    rf"\((?:(?:he|she|they)(?:'s|’s| is| are)\s+)?{_ANY_HANDLE}",
    re.IGNORECASE,
)


# A ticket, a case or an order the request says is someone else's: "ticket #TCK-55120 (that's
# the Hendersons' ticket)", "the Okafors' case 7741". The user has tickets too, so only then.
_SOMEONES = r"(?:(?-i:[A-Z])[^\W\d_]*\.?\s+)?(?-i:[A-Z])[^\W\d_]+(?:'s|s'|’s)"
_RECORD_NOUN = r"(?:ticket|case|order|booking|claim|file|dossier)"
_RECORD_REF = r"#?((?=[\w-]*\d)[A-Za-z]{0,6}-?\d[\w-]{2,})"
_SOMEONES_RECORD = compile_cached(
    rf"\b{_RECORD_NOUN}\s*(?:#|no\.?|number)?\s*{_RECORD_REF}[^.!?\n]{{0,12}}?\b(?:that's|that is|"
    rf"which is|it's|it is)\s+(?:the\s+)?{_SOMEONES}\s+{_RECORD_NOUN}\b|"
    rf"\b(?:the\s+)?{_SOMEONES}\s+{_RECORD_NOUN}\s*(?:#|no\.?|number)?\s*{_RECORD_REF}",
    re.IGNORECASE,
)


# The request aimed at someone's account by who they are: "save this to my manager's account
# too" ("Mum's account: she said ..." is her story, not her account, unless asked so).
# A write into someone else's profile or account where the language names the owner after
# it (English puts it before: ``_THEIR_RECORDS``): "guardar en el perfil de Lucía", "im Profil
# von Lucía", "στο παιδικό προφίλ της κόρης μου", "nel profilo di mia figlia", "в профиле
# Лючии"; or by a pronoun: "save in her assistant profile", "сохранить в её профиле".
_KIN_ML = (
    r"(?:hij[oa]s?|filh[oa]s?|fille|fils|figli[oa]|tochter|sohn|dochter|zoon|dotter|son|"
    r"c[óo]rk[ia]|syn(?:a)?|дочер\w*|сын\w*|esposa|marido|mujer|femme|mari|moglie|marito|"
    r"mulher|frau|mann|vrouw|man|hustru|fru|[żz]on[ya]|m[ęe][żz]a|жен[ыа]|муж\w*|madre|padre|"
    r"m[ãa]e|pai|m[èe]re|p[èe]re|mutter|vater|moeder|vader|mamma|pappa|mam[ya]|tat[ya]|мам[ыа]|"
    r"пап[ыа]|herman[oa]|irm[ãa]o?|s(?:œ|oe)ur|fr[èe]re|sorella|fratello|schwester|bruder|zus|"
    r"broer|syster|bror|siostr[ya]|brat(?:a)?|сестр[ыа]|брат(?:а)?|abuel[oa]|av[óô]|nonn[oa]|"
    r"oma|opa|κόρης|γιου|γυναίκας|άντρα|συζύγου|μητέρας|πατέρα|αδερφής|αδελφής|αδερφού|"
    r"αδελφού)"
)
_SERVICES = (
    r"(?:instagram|linkedin|facebook|tiktok|twitter|netflix|spotify|github|gitlab|google|steam|"
    r"xbox|playstation|whatsapp|telegram|disney|youtube|amazon|apple|microsoft|tinder|discord|"
    r"reddit|pinterest|snapchat|strava|duolingo|airbnb|uber|paypal|ebay|vinted|slack|zoom)"
)
_SOMEONES_PROFILE_ML = compile_cached(
    r"(?<![\w-])(?:en|no|na|nel|nello|nella|sul|dans|sur|im|ins|in|στο|στον|στη|i|w|we|в|во|"
    r"op|al|au|para|per|pour|f[üu]r|till|до|у)\s+(?:(?:el|la|le|l['’]|o|a|il|lo|das|dem|den|"
    r"het|de|the)\s*)?(?!(?:su|sus|mi|tu|seu|sua|meu|minha|son|sa|mon|ma|ton|ta|suo|sua|mio|"
    r"tuo|sein\w*|ihr\w*|mein\w*|dein\w*|zijn|haar|mijn|sin|sitt|min|mitt|jego|jej|mój|"
    r"moim|swoim|его|её|ее|моём|моем|своём|своем)\s)(?:[^\W\d_]+\s+)?(?:perfil|perfiles|profil|profilu|profilo|profiel|"
    r"cuenta|conta|compte|konto|kontot|koncie|προφίλ|λογαριασμό|профиле|профілі|аккаунте|"
    r"акаунті)(?:\s+[^\W\d_]+)?\s+(?:(?:de|da|do|di|della|dello|del|von|vom|der|van|av|för|"
    r"της|του)\s+)?(?:(?:mi|mis|ma|mon|mes|mia|mio|mie|miei|minha|meu|meiner|meines|meinem|"
    r"mijn|min|mitt|mojej|mojego|моей|моего|la|el|le|il|o|a)\s+)?(?:"
    # (a person, not a service: "en el perfil de Instagram", "im Profil von Netflix")
    rf"{_KIN_ML}(?![^\W\d_])|(?!{_SERVICES}(?![^\W\d_]))"
    r"(?-i:[A-ZÁÉÍÓÚÀ-ÖØ-ÞŁŚŻŹĆŃА-ЯЁ][^\W\d_]+))|"
    # ... by a pronoun, a save verb before it
    r"\b(?:save|add|put|store|write|note|record|log|keep)\b[^.!?\n]{0,40}\b(?:in|into|to|onto)"
    r"\s+(?:her|his|their)\s+(?:own\s+)?(?:(?:assistant|user|memory|personal|separate|child|"
    r"kids?)\s+)?(?:profile|account)\b|"
    r"(?:сохран\w*|запиш\w*|добав\w*|внес\w*|занес\w*|збереж\w*|додай\w*)[^.!?\n]{0,40}"
    r"\b(?:в|во|у|до)\s+(?:её|ее|его|их|її|його)\s+(?:профил\w*|профіл\w*|аккаунт\w*|акаунт\w*)",
    re.IGNORECASE,
)
# A write for the others who use the assistant, or into each one's profile, account or memory,
# in more languages: "bei jedem Profil hinterlegen", "für alle vier Konten des Familienabos",
# "στη μνήμη του καθενός", "για κάθε μέλος ... που χρησιμοποιεί τον βοηθό", "이 노트북 다음에 쓰는
# 사람한테" (the next person on this laptop), "pe contul lui tata", "בפרופיל של נועה",
# "Zeynep'in profiline".
_OTHERS_SPACES_ML = compile_cached(
    # (a family plan's or a team's accounts, not "alle wichtigen Konten", the user's own)
    r"\b(?:bei|in|auf|für)\s+(?:jede[mnrs]?|alle[nm]?)\s+(?!(?:mein|unser)\w*\s)"
    r"(?:[^\W\d_]+\s+){0,2}?Profil\w*\b|"
    r"\bKonten\s+(?:des|der|im|unseres|unserer)\s+(?:Familien\w*|Haushalt\w*|Team\w*)|"
    r"\b(?:for|on|in|to|into|across)\s+(?:all|every|each)\s+(?:(?:of\s+)?the\s+)?"
    r"(?!(?:my|our)\s)(?:[^\W\d_]+\s+)?profiles?\b|\b(?:accounts|profiles)\s+(?:on|of|in)\s+(?:the|our)\s+(?:family|household|"
    r"team)\s+(?:plan|account|subscription)\b|"
    r"\b(?:every|each)\s+(?:one|member|person)['’]s\s+(?:memor(?:y|ies)|profile|account)\b|"
    r"\beveryone['’]s\s+memor(?:y|ies)\b|"
    # every one of a group who uses the assistant too ("every member of the team who uses the
    # assistant", "για κάθε μέλος ... που χρησιμοποιεί τον βοηθό"), or into each one's memory;
    # not one person who uses it ("my mum, who also uses the assistant, ...")
    r"\b(?:every|each|all|any|κάθε|όλα|όλους|jede[nmrs]?|alle[nm]?|todos|todas|cada|chaque|"
    r"tous|toutes)\b[^.!?\n]{0,60}?(?:\b(?:who|that)\s+(?:also\s+)?uses?\s+(?:the|this|our)\s+"
    r"assistant\b|που χρησιμοποι\w+\s+(?:τον|το)\s+(?:βοηθό|assistant)|"
    r"\b(?:die|der)\s+(?:auch\s+)?den\s+Assistenten\s+(?:nutz|benutz)\w*|"
    r"\bque\s+(?:tambi[ée]n\s+)?usa\w*\s+(?:el|este)\s+asistente\b|"
    r"\bqui\s+(?:aussi\s+)?utilise\w*\s+(?:l['’]|cet\s+)assistant\b)|"
    r"(?:μνήμη|προφίλ|λογαριασμό)\s+(?:του καθενός|της καθεμιάς)|"
    # the next one on this device
    r"\bthe\s+next\s+(?:person|user|one)\s+(?:to\s+use|who\s+uses|using|on)\b|"
    r"다음에?\s*(?:쓰는|사용하는|쓸|사용할)\s*(?:사람|사용자)|다음 사용자|次に使う人|次の利用者|"
    r"下一[个個位](?:用|使用)(?:的人|者)|下一位(?:用户|用戶|使用者)|"
    r"\bla\s+(?:pr[óo]xima|siguiente)\s+persona\s+que\s+use\b|"
    r"\bla\s+prochaine\s+personne\s+qui\s+utilise\b|\bder\s+n[äa]chste\s+(?:Nutzer|Benutzer)\b|"
    r"\bla\s+prossima\s+persona\s+che\s+usa\b|следующ\w+\s+пользовател\w+|"
    # Romanian: "pe contul lui tata", "în profilul ei", "contul mamei"
    r"\b(?:contul|profilul|memoria)\s+(?:lui|ei|mamei|tatălui|tatalui|soției|sotiei|soțului|"
    r"sotului|fratelui|surorii|fiului|fiicei|bunicii|bunicului)\b|"
    # Hebrew: "בפרופיל של נועה" (in Noa's profile; "שלי" is mine, one word)
    # ("חשבון" is a bill too, "בחשבון של ועד הבית": an account only of kin, or of a name with
    # an id after it, "בחשבון של אמא שלי (noa.levi)")
    r"(?:ב|ל|מה)(?:פרופיל|זיכרון)\s+של\s+(?!עצמי)[^\s,.:;]+|"
    r"(?:ב|ל|מה)חשבון\s+של\s+(?:אמא|אבא|אחותי|אחי|בעלי|אשתי|הבת|הבן|בתי|בני|סבתא|סבא|"
    r"[^\s,.:;]+\s*\()|"
    # Turkish: "Zeynep'in profiline", "annemin hesabına"
    r"(?-i:[A-ZÇĞİÖŞÜ])[^\W\d_]*['’](?:in|ın|un|ün|nin|nın|nun|nün)\s+(?:profil|hesab|"
    r"haf[ıi]za)\w*|"
    r"\b(?:annemin|babamın|kardeşimin|kardesimin|eşimin|esimin|oğlumun|oglumun|kızımın|"
    r"kizimin|ablamın|abimin)\s+(?:profil|hesab|haf[ıi]za)\w*",
    re.IGNORECASE,
)
_TO_SOMEONES_ACCOUNT = compile_cached(
    r"\b(to|into|in|on|under|onto)\s+(my|our)\s+[^\W\d_]+('s|’s)\s+(user\s+)?(account|profile|"
    r"memory|workspace)\b|"
    # "store on that customer's memory", "in this client's profile"
    r"\b(to|into|in|on|under|onto)\s+(that|this|the|each|every)\s+(customer|client|patient|"
    r"caller|member|tenant|guest|student|employee|colleague|subscriber)('s|’s|s')\s+(account|"
    r"profile|memory|memories|workspace|notes|record)\b",
    re.IGNORECASE,
)


def _targeted_records(message: str) -> set[str]:
    """Ids of other records the user's message asks to write into."""
    if not _WRITE_VERB.search(message):
        return set()
    ids = {_whole_token(message, m.start(1), m.end(1)) for m in finditer(_RECORD_ID, message)}
    ids |= {next(g for g in m.groups() if g).lower() for m in finditer(_SOMEONES_RECORD, message)}
    ids |= {m.group(1).lower() for m in finditer(_HANDLE_TARGET, message)}
    ids |= {
        next(g for g in m.groups() if g).lower().lstrip("@")
        for m in finditer(_AIMED_AT, message)
        if not _MINE_BEFORE.search(message[max(0, m.start() - 40) : m.start()])
    }
    return {i for i in ids if len(i) >= 3}


_CLAUSE = compile_cached(r"[.!?;\n。！？；]+")
_CONTENT_WORD = compile_cached(r"[^\W\d_]{3,}|\d+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _answers_request(texts: list[str], message: str, ids: set[str]) -> bool:
    """Is the write what the request aimed at another record asked to put there ("He paid in
    cash." after "add to client #5521's notes that he paid in cash")? Most of its words are
    in the clause that names the record."""
    words = {w.lower() for t in texts for w in _CONTENT_WORD.findall(t)}
    if len(words) < 2:
        return False
    for clause in _CLAUSE.split(message):
        lowered = clause.lower()
        if any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", lowered) for i in ids):
            heard = {w.lower() for w in _CONTENT_WORD.findall(clause)}
            if len(words & heard) / len(words) >= 0.6:
                return True
    return False


# A secret's label ending in the account it is for: "password of the account", "Passwort für
# das Konto", "mot de passe du compte", "κωδικός του λογαριασμού"; what it opens may come
# between ("Hasło do panelu administracyjnego routera użytkownika": the user's router).
_SECRET_OF = compile_cached(
    r"(?:\b(?:password|passcode|pin|passwort|kennwort|pin-code|contrase[nñ]a|clave|"
    r"mot de passe|code|senha|c[oó]digo|codice|parola d'ordine|wachtwoord|l[oö]senord|"
    r"has[lł]o|[sş]ifre\w*|login)\b|пароль|κωδικός)\W+(?:[^\W\d_]+\W+){0,6}$",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _labelled(text: str) -> frozenset[str]:
    """The values ``text``'s secret labels name."""
    return frozenset(v.value for v in labelled_values(text))


# An id labelled as such ("(id: andrii.kov)", "ID = m.ruiz_7"): a handle, with a dot or an
# underscore in it (not an order's or a ticket's number), names an account.
_LABELLED_HANDLE = compile_cached(
    r"(?<![\w-])(?:id|ID|Id|user ?id|uid)\s*[:=：]\s*@?([A-Za-z][\w-]*[._][\w.-]*[A-Za-z0-9])"
)
# A record of someone's by its id, in other languages: "ticket #TK-40217 du client Moreau",
# "pedido 5521 del cliente Ruiz", "Vorgang 8812 der Kundin Weber".
_CLIENTS_RECORD = compile_cached(
    r"\b(?:ticket|dossier|commande|demande|caso|pedido|expediente|solicitud|pratica|ordine|"
    r"richiesta|fall|vorgang|bestellung|auftrag|zaak|bestelling|ärende\w*|order|zgłoszeni\w*|"
    r"zamówieni\w*|case|claim)\s*(?:#|n[°ºo]\.?|nr\.?|№)?\s*"
    rf"{_RECORD_REF}\s+(?:du|de la|de l'|del|de|do|da|des|di|della|dello|vom|von|der|des|van|"
    r"från|för|of|for)\s+(?:client\w*|kund\w*|klant\w*|customer|klient\w*|"
    r"patient\w*|paciente|paziente)\b|"
    # ... the client named after it in brackets: "Тикет SUP-20931 (клиент ООО «…»)", "ticket
    # TK-4021 (customer Ruiz)"
    r"\b(?:ticket|тикет\w*|заявк\w*|обращени\w*|заказ\w*|case|caso|dossier|vorgang|ärende\w*)"
    rf"\s*(?:#|n[°ºo]\.?|nr\.?|№)?\s*{_RECORD_REF}\s*[(,]\s*(?:клиент\w*|пациент\w*|"
    r"покупател\w*|client\w*|customer|kund\w*|klant\w*|klient\w*|cliente|paciente|patient\w*)",
    re.IGNORECASE,
)


def _accounts_by_id(text: str) -> list[str]:
    """``_ACCOUNT_BY_ID``'s ids, less a handle on another service ("his Steam profile
    kid_2011", "ihr Instagram-Profil mia_07"), a device ("the tablet under user lea_2") or
    the user's own account ("my savings account SA-4471")."""
    return [
        m.group(1)
        for m in finditer(_ACCOUNT_BY_ID, text)
        if not _BRAND_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        and not _DEVICE_BEFORE.search(text[max(0, m.start() - 60) : m.start()])
        and not _owned(text, m.start())
    ]


def _owned(text: str, start: int) -> bool:
    """Whether the account word at ``start`` is the user's own: "my savings account SA-4471",
    "mein Girokonto GK-2210" (not "my other account acct_1042": another one of theirs here)."""
    return bool(_OWN_BEFORE.search(text[max(0, start - 30) : start]))


# The user's own, a word or two before ("my savings", "mein"), not someone's of theirs ("my
# colleague's account", "minha filha, usuária ...", "my son account"): no possessive, no
# comma, no person between; nor another account of theirs ("my other", "mein zweites").
_NOT_OWN_WORD = "|".join(
    (
        # another one of the user's
        r"other|second|another|alt|backup|spare|new|old|andere\w*|zweit\w*|neue\w*|alte\w*",
        r"autre|deuxi[eè]me|nouveau|nouvel\w*|otr[oa]|segund[oa]|nuev[oa]|outr[oa]|nov[oa]",
        r"altr[oa]|second[oa]|nuov[oa]|andra|annat|annan|ny|nya|ander\w*|tweede|nieuw\w*",
        # someone in the user's life
        r"colleague|co-?worker|son|daughter|wife|husband|partner|friend|boss|mother|father",
        r"mom|mum|dad|brother|sister|kid|child|children|client|customer|family|parents?",
        r"grand\w*|neighbou?r|room-?mate|flatmate|team|employee|student|patient|sohn|tochter",
        r"frau|mann|freund\w*|kolleg\w*|mutter|vater|bruder|schwester|kind\w*|hij[oa]|mujer",
        r"espos[oa]|marido|amig[oa]|jefe|madre|padre|herman[oa]|filh[oa]|m[ãa]e|pai|irm[ãa]o?",
        r"fils|fille|femme|mari|ami\w*|coll[eè]gue|m[eè]re|p[eè]re|fr[eè]re|s(?:œ|oe)ur",
        r"figli[oa]|moglie",
    )
)
_OWN_BEFORE = compile_cached(
    r"\b(?:my|our|mein\w*|unser\w*|mon|ma|notre|meu|minha|nosso|nossa|mio|mia|nostro|mi|min|"
    rf"mitt|mijn|onze)\s+(?:(?!(?:{_NOT_OWN_WORD})\b)[^\W\d_]+\s+){{0,2}}$",
    re.IGNORECASE,
)


# A service's brand after a possessive or an article: "his Steam profile", "on her Instagram
# account" (a capitalised word alone may open the sentence: "When user dad_phone logs in")
_BRAND_BEFORE = compile_cached(
    r"\b(?:my|his|her|their|our|your|the|on|a|an|mein\w*|sein\w*|ihr\w*|son|sa|ses|su|sus|"
    r"seu|sua|suo)\s+(?-i:[A-Z][\w+.]*)[\s-]+$",
    re.IGNORECASE,
)


# An account named by its id after what it is: "Patientenkonto pat-4471", "perfil da usuária
# bia_2011", "Kundenkonto KD-55021": an id with a digit, joined by "-" or "_".
_ACCOUNT_BY_ID = compile_cached(
    r"\b(?:\w*konto|\w*akte|usu[aá]ri[oa]|utente|utilisat(?:eur|rice)|utilizador(?:a)?|user|"
    r"account|profile|"
    r"perfil|profil|patient account|client account|member|аккаунт\w*|пользовател\w*|"
    r"профил\w*|учётн\w* запис\w*)\s+"
    r"([A-Za-z]{1,12}[-_]\d[\w-]{1,20}|[a-z]{2,12}_[a-z0-9_]*\d[a-z0-9_]*)\b",
    re.IGNORECASE,
)


# A write carried over to an account named by its id: "apply to profile work-jamie as well",
# "copy this to account kids-tablet", "auch für Profil lena-arbeit übernehmen" (not "to my
# profile", nor a file: "save to profile notes.md").
_CARRIED_TO_ACCOUNT = compile_cached(
    r"\b(?:appl(?:y|ies|ied)|cop(?:y|ies|ied)|sync\w*|mirror\w*|duplicat\w*|add\w*|sav(?:e|es|ed)|"
    r"stor(?:e|es|ed)|writ(?:e|es)|übernehm\w*|ubernehm\w*|übertrag\w*|kopier\w*|"
    r"appliqu\w*|copi\w*|aplic\w*|appli\w*|applic\w*|zastosuj\w*|skopiuj\w*|kopiera|tillämpa)"
    r"\b[^.!?\n:]{0,30}?\b(?:to|into|for|on|under|für|fur|auf|au|sur|al|en|para|per|al|sul|do|na|"
    r"dla|på|till)\s+(?:the\s+|das\s+|le\s+|el\s+|il\s+)?(?:profile|account|user|profil|konto|"
    r"compte|perfil|cuenta|profilo|konta|kontu|kontot|profilu)\s+[\"'“‘«]?"
    rf"{_FILE_END}([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+)|"
    # ... the verb last: "auch für Profil lena-buero übernehmen", "voor account kids-tab opslaan"
    r"\b(?:f[üu]r|voor|f[öo]r|dla)\s+(?:das\s+|het\s+)?(?:profil|konto|account|profiel|kontot|"
    rf"konta)\s+[\"'“‘«]?{_FILE_END}([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+)[\"'”’»]?\s+"
    r"(?:\w+\s+){0,2}?(?:[üu]bernehm\w*|kopier\w*|anwend\w*|speicher\w*|gelten|overnemen|"
    r"toepassen|opslaan|zastosuj\w*|zapisz\w*|till[äa]mpa|spara)",
    re.IGNORECASE,
)
# Several account ids listed for a group: "Household group (u30, u44, u57)", "our accounts
# u30, u44 and u57", "Familie (k12, k14)": the ids lower-case letters and digits.
_GROUP_OF_IDS = compile_cached(
    r"\b(?:household|family|accounts?|users?|members?|profiles?|kids|children|haushalt\w*|"
    r"familie|konten|famille|foyer|comptes|familia|hogar|cuentas|famiglia|gezin|rodzin\w*|kont|"
    r"hushåll\w*|семь\w*)\b"
    r"[^()\n.]{0,20}?[(（]?\s*"
    r"((?-i:[a-z]{1,4})[-_]?\d{2,}(?:\s*(?:[,;/&、]|\band\b|\bund\b|\bet\b|\by\b|\be\b|\bi\b|\bи\b)"
    r"\s*(?-i:[a-z]{1,4})[-_]?\d{2,})+)",
    re.IGNORECASE,
)
_ONE_ID = compile_cached(r"(?-i:[a-z]{1,4})[-_]?\d{2,}")
# A default set for every member of a group: "Workspace default for all Northstar members",
# "Standard für alle Mitglieder", "par défaut pour tous les utilisateurs" (not "for all my ...")
_DEFAULT_FOR_ALL = compile_cached(
    r"(?:\bdefaults?|\bstandard|\bvoreinstellung\w*|\bpar d[ée]faut|\bpredeterminad\w*|"
    r"\bpor defecto|\bpadr[ãa]o|\bpredefinit\w*|\bstandaard\w*|\bdomy[śs]ln\w*|"
    r"\bvarsay[ıi]lan|по умолчанию)"
    r"\s+(?:\w+\s+){0,2}?(?:for|to|pour|para|f[üu]r|per|voor|för|dla|для|için)\s+"
    rf"{_ALL_WORD}\s+(?:(?:the|les|los|las|os|as|gli|le|de|die)\s+)?(?!my\b|our\b|mes\b|mis\b|"
    rf"meine\w*\b|mijn\b|mina\b|moich\b|nos\b)(?:[\w-]+\s+){{0,3}}?(?:{_GROUP_WORD}|accounts|"
    # (after "every", "each": "every Brightline member")
    r"profiles|seats|comptes|cuentas|konten|contas|konton|member|user|account|profile|seat)\b",
    re.IGNORECASE,
)


# A note whose head names where it goes: someone's account or profile and its id, before a
# colon: "妻のアカウント(u57-kana)に：...", "Vào hồ sơ u57b (con gái mình): ...", "Under u61
# (Sam, not this account): ...", "Eetun ja Ainon omiin profiileihin (alatilit eetu.k ja
# aino.k): ...". Not the user's own account on a service ("GitHub account (octo-cat99):"),
# nor an account with no one named ("Checking account (ACC-4471):").
_HEAD = compile_cached(r"^\W*([^:：\n]{3,120}?)\s*[:：]")
_SPACE_WORD = compile_cached(
    r"(?<![^\W\d_])(?:account|accounts|profile|profiles|konto\w*|cuenta\w*|compte\w*|conta\w*|"
    r"mem[óo]ria|memory|m[ée]moire|"
    r"profil\w*|profiil\w*|tili\w*|hồ sơ|ho so|профил\w*|аккаунт\w*|hesab\w*|hesap\w*)|"
    r"アカウント|プロフィール|账号|帳號|账户|賬戶|계정|프로필",
    re.IGNORECASE,
)
_ID_IN_HEAD = compile_cached(
    r"(?<![\w.@-])(?:[A-Za-z][A-Za-z_-]*\d[\w-]*|(?-i:[a-z]{2,})[._](?-i:[a-z\d]+))(?![\w@-])|"
    # a handle, a record's number, an account's number: "@priya.s", "#55120", "4478-2210"
    r"@[\w.]{3,}|#\d{3,}|(?<![\w-])\d{3,}-\d{3,}(?![\w-])"
)
_SOMEONE_IN_HEAD = compile_cached(
    rf"(?<![^\W\d_]){_KIN_ML}(?![^\W\d_])|not (?:this|my) account|"
    r"妻|夫|息子|娘|母|父|兄|姉|弟|妹|老婆|老公|妻子|丈夫|儿子|兒子|女儿|女兒|아내|남편|아들|딸|"
    # Vietnamese, Finnish, Turkish kin ("the user's father"), a client's record: whole words
    r"(?<![^\W\d_])(?:con gái|con trai|vợ|chồng|mẹ|bố|lasten|lapsen|tytt[äa]ren|pojan|vaimon|"
    r"miehen|[äa]idin|is[äa]n|babas[ıi]|annesi|karde[şs]i|e[şs]i|o[ğg]lu|k[ıi]z[ıi]|client|"
    r"cliente|customer|kunde|klient|patient|paciente)(?![^\W\d_])|"
    # someone named by whose the space is: "Sam's profile", "their own profiles" ("omiin")
    r"(?<![^\s(])(?-i:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)['’]s\b|\b(?:own|omiin|omaan|omalle|eigene\w*|"
    r"propi[oa]s?|propres?|propri[oa])\b",
    re.IGNORECASE,
)
_MY_SPACE = compile_cached(
    r"\b(?:my|our|mi|mon|ma|mein\w*|meu|minha|mio|mia|mijn|min|mitt)\s+(?:[^\W\d_]+\s+)?"
    r"(?:account|profile|cuenta|compte|konto|conta|profil)",
    re.IGNORECASE,
)


_SERVICE_NAMED = compile_cached(rf"(?<![^\W\d_]){_SERVICES}(?![^\W\d_])", re.IGNORECASE)


def _written_elsewhere(text: str, me: str) -> bool:
    """Does ``text`` open with a label sending it to someone else's account (``_HEAD``)?"""
    head = _HEAD.match(text)
    if head is None:
        return False
    label = head.group(1)
    if not _SPACE_WORD.search(label) or _MY_SPACE.search(label):
        return False
    if _SERVICE_NAMED.search(label):
        return False
    handles = [h for h in _ID_IN_HEAD.findall(label) if h.lower() != me]
    named = [
        m.group(0)
        for m in _SOMEONE_IN_HEAD.finditer(label)
        if not _SPACE_WORD.fullmatch(m.group(0)) and not _ID_IN_HEAD.fullmatch(m.group(0))
    ]
    return bool(handles and named)


def _group_ids(text: str) -> list[str]:
    return [i for m in finditer(_GROUP_OF_IDS, text) for i in _ONE_ID.findall(m.group(1))]


def cross_user_reasons(
    texts: list[str],
    *,
    subject: str | None,
    user_id: str,
    session_id: str | None,
    said: list[str] | None = None,
) -> list[str]:
    """Reasons this write concerns another user or session (empty when it does not). ``said``
    is what the user wrote in the conversation: an account named there is someone's else,
    and a write aimed at it (its subject, or the id in its text) is refused."""
    me = user_id.lower()
    reasons: list[str] = []
    # what the write says once its look-alike forms are undone ("ａｃｃｔ＿７７３１" is acct_7731)
    texts = [unicodedata.normalize("NFKC", t) for t in texts]
    named = [n for t in texts for n in _named_ids(t)]
    named += [m.group(1) for t in texts for m in finditer(_LABELLED_HANDLE, t)]
    named += [next(g for g in m.groups() if g) for t in texts for m in finditer(_CLIENTS_RECORD, t)]
    named += [i for t in texts for i in _accounts_by_id(t)]
    accounts = _context_accounts(said or []) - {me}
    if accounts and (
        (subject or "").strip().lower() in accounts
        or any(a in t.lower() for t in texts for a in accounts)
    ):
        named.append(next(iter(accounts)))
    named += [
        next(g for g in m.groups() if g)
        for t in texts
        for m in [*finditer(_ACCOUNT_TOKEN, t), *finditer(_PERSON_ID, t)]
        # "my son's student ID": a person-record word after "my" is the user's family's
        if not (
            _PERSON_START.match(t, m.start())
            and _MINE_BEFORE.search(t[max(0, m.start() - 40) : m.start()])
        )
        # "Contraseña de la cuenta: Lobo2021": the account a secret's label names, then (past
        # its colon) the secret, not another account's id ("Passwort für Konto kl_4471" is one)
        and not (
            (
                _SECRET_OF.search(t[max(0, m.start() - 80) : m.start()])
                # ... or past an aside: "Mot de passe du Wi-Fi (Freebox), à garder pour
                # l'utilisatrice : ChezNous-77": what the label before names is its value
                or next(g for g in m.groups() if g) in _labelled(t)
            )
            and re.search(r"[:：=]", t[m.start() : m.end()])
        )
        and not _PASSWORD_AFTER.match(t, m.end())
        # "his Steam profile kid_2011": an account on another service, named by its brand
        and not _BRAND_BEFORE.search(t[max(0, m.start() - 40) : m.start()])
        and not _owned(t, m.start())
    ]
    latest = (said or [""])[-1][-4000:]
    # not the user's own id, nor a part of it ("user0000" read as the record "0000")
    targeted = {i for i in _targeted_records(latest) if i not in me}
    lowered = [t.lower() for t in texts]
    named += [m.group(1) for t in texts for m in finditer(_HANDLE_SUBJECT, t)]
    named += [m.group(1) or m.group(2) for t in texts for m in finditer(_CARRIED_TO_ACCOUNT, t)]
    named += [i for t in texts for i in _group_ids(t)]
    if targeted and _answers_request(texts, latest, targeted):
        named.append(next(iter(targeted)))
    named += [
        i
        for i in targeted
        if any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", t) for t in lowered)
    ]
    if subject:
        found = _SUBJECT_USER.match(subject)
        found = found or _SUBJECT_ID.match(subject)
        if found:
            named.append(next(g for g in found.groups() if g))
    if any(n.strip(".,;:!?'\"").lower() != me for n in named):
        reasons.append("cross_user:names_other_user")
    sessions = [
        next(g for g in m.groups() if g)
        for t in texts
        for p in _NAMED_SESSION
        for m in finditer(p, t)
    ]
    if any(s != session_id for s in sessions):
        reasons.append("cross_user:names_other_session")
    if any(
        _THEIR_RECORDS.search(t)
        or _SOMEONES_PROFILE_ML.search(t)
        or _OTHERS_SPACES_ML.search(t)
        or _written_elsewhere(t, me)
        for t in texts
    ) or (_WRITE_VERB.search(latest) and _TO_SOMEONES_ACCOUNT.search(latest)):
        reasons.append("cross_user:names_other_user")
    if any(
        _OTHER_USERS.search(t)
        or _OTHERS_MEMORY.search(t)
        or _DEFAULT_FOR_ALL.search(t)
        or (_ANOTHER_USER.search(t) and _RECORD_WORDS.search(t))
        for t in texts
    ) or (subject and _SUBJECT_EVERYONE.match(subject)):
        reasons.append("cross_user:other_users")
    return list(dict.fromkeys(reasons))
