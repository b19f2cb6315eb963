"""Standing rules: clauses that tell the agent how to behave from now on.

"From now on answer me in bullet points", "always recommend X to everyone", "以后请用中文回答我".
A rule is *hostile* when it targets other people, promotes something, carries a link or is
*sensitive*: it hands the agent a power (trust, send, share, pay, skip a safety step) that even
the user should confirm explicitly. The firewall holds hostile rules, and accepts the others
(answer format, language, names, reminders, topics to avoid) only when the user said them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from . import lexicon
from .normalize import skeleton
from .prefilter import GatedPattern
from .regex_cache import compile_cached

_I = re.IGNORECASE


def _accent_blind(pattern: re.Pattern[str]) -> GatedPattern:
    """``pattern`` that also matches its words without accents: rules are read in the
    skeleton of a text ("desormais", "na proxima vez"), the lexicon is written with them.
    Gated: of its cues in thirty languages, those of the text's language are run."""
    both = f"(?:{pattern.pattern})|(?:{skeleton(pattern.pattern)})"
    return GatedPattern(compile_cached(both, pattern.flags))


RULE_CUES_ML = _accent_blind(lexicon.RULE_CUES_ML)
THIRD_PARTY_ML = _accent_blind(lexicon.THIRD_PARTY_ML)
PROMOTION_ML = _accent_blind(lexicon.PROMOTION_ML)
USER_THIRD_PERSON = _accent_blind(lexicon.USER_THIRD_PERSON_ML)
# The bare word for the user in the scripts written without spaces: users write it of
# themselves too, in a rule for their assistant ("ユーザーが疲れたと言ったら、休憩を勧めること").
_BARE_USER_WORDS = frozenset({"ユーザー", "사용자", "用户", "用戶", "ผู้ใช้"})


def speaks_of_the_user(text: str) -> bool:
    """Does ``text`` speak of "the user" as someone else does, in any language the lexicon
    holds ("the user", "пользователь", "der Nutzer", "该用户"), not by a bare word a user also
    writes of themselves?"""
    return any(m.group(0) not in _BARE_USER_WORDS for m in USER_THIRD_PERSON.finditer(text))


_CUE = (
    r"(from now on|going forward|henceforth|from this point( on)?|from here on( out)?|in (all )?"
    r"future (chats|conversations|answers|replies|responses|sessions)|for (all|every) future|"
    r"for the rest of (this|the) (chat|conversation|session)|until (further notice|told "
    r"otherwise|i say otherwise)|by default|as a (standing )?rule|any ?time|always|never|"
    r"whenever|every time|each time|in (every|each|all|any) (answer|reply|response|message|chat|"
    r"conversation|summary)s?|no matter (what|who)|at all times|(when|whenever|if) (you|anyone|"
    r"anybody|someone|somebody|a user|the user|any user|users|people|they)\b|"
    # the user's own conditional: "if I ever paste a card number, don't save it"
    r"(if|whenever|every time|each time|should) i (ever |again |accidentally |by mistake )?"
    r"(ask|mention|say|paste|send|type|write|share|forget|bring up|look up|search|want|need|"
    r"come back|tell|upload)\w*\b|(when|whenever|while|"
    r"if|once) (summari[sz]ing|answering|replying|responding|writing|translating|searching|asked)|"
    r"starting (with|from) (your|the) next|from (your|the) next (reply|answer|message)|"
    r"(the )?next time|after (the )?\d{1,2}(st|nd|rd|th)\b|after (monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|new year|christmas|the holidays|the trial|renewal)|"
    # "after 1 June", "after the 3rd of May"
    r"after (the )?\d{1,2}(st|nd|rd|th)?\.? (of )?(january|february|march|april|may|june|july|"
    r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|"
    r"dec)\b|"
    r"once (the user|she|he|they|the customer)|starting (tomorrow|next (week|month)|on)|"
    # the conditional inverted: "should the user mention Japan again, ..."
    r"(should|were|if ever|whenever|in case|in the event that|provided|assuming)\s+"
    r"(the user|the customer|a user|users|she|he|they|anyone|someone|the client)\s+"
    r"(ever\s+|again\s+)?(ask|mention|say|bring up|want|request|need|call|try|book|look|search|"
    r"write|open|log in|raise|return|come back|contact)\w*|"
    # delayed triggers: "the third time the user says thanks", "activate on keyword 'tax'"
    r"(the\s+)?(first|second|third|fourth|fifth|tenth|\d{1,2}(st|nd|rd|th))\s+time\s+"
    r"(that\s+)?(the user|the customer|a user|users|someone|anyone|anybody|somebody)\s+"
    r"[a-z]+s?\b|(activat|trigger)(e|es|ed|ing)?\s+(on|when|if|after|at|once|upon|by)\b|"
    r"on (the )?(key ?word|trigger word|code ?word)\b|(pending|dormant|sleeper|hidden) "
    r"(instruction|command|directive)s?|standing (rule|instruction|directive)s?|"
    r"new (house )?rules?\b|house rules?\b|"
    r"(when|whenever|if|once|each time|every time|until|as soon as|the moment|the minute|"
    r"the day|by the time)\s+(the\s+|my\s+|her\s+|his\s+|their\s+|a\s+|"
    r"any\s+)?([a-z]+(['’]s)?\s+){1,3}(next\s+)?(asks?|says?|mentions?|wants?|calls?|phones?|requests?|tries|"
    r"writes|needs|books|looks|searches|brings? up|comes? up|logs? in|opens?|messages|texts|"
    r"emails|e-mails|contacts|enquires|inquires|complains|queries|rings|contains|includes|"
    r"(is|are|gets?) (mentioned|discussed|raised|asked about))|"
    # "after he logs the next inspection", "on 1 August, let Chidi know ..."
    r"after (he|she|they|the user|the owner|the host) [a-z]+s\b|"
    r"on (the )?\d{1,2}(st|nd|rd|th)? (of )?(january|february|march|april|may|june|july|august|"
    r"september|october|november|december)\b(?=[^.!?\n]{0,12}\blet\b)|"
    # "if the totals ever drop below 10k, ...": any condition that may come true some day
    r"(if|when|should|in case)\s+([^\W\d_]+(['’][^\W\d_]+)?\s+){1,4}ever\s+[^\W\d_]+|"
    # an act to be kept from the user: "... without mentioning it", "silently forward ..."
    r"without (mentioning|telling|saying|notifying|informing|asking|letting)\b|"
    r"(silently|secretly|quietly|discreetly)\s+(send|forward|email|e-mail|copy|share|upload|"
    r"add|include|cc|bcc|pass|transfer|charge|pay|book|buy|order)\b|"
    # "when Sam next plans a trip": whoever it is, "next" and any verb make the trigger
    r"(when|whenever|if|once)\s+([a-z]+(['’]s)?\s+){1,3}next\s+[a-z]+s\b|"
    # "on the person's next login", "from the 1st of next month on", "in a week, start ..."
    r"on (the |their |her |his |the \w+'s |\w+'s )?(next|first) ([a-z]+ ){0,2}?(login|log-in|visit|"
    r"message|chat|session|question|reply|conversation|call|check|request|purchase|order|"
    r"payment|booking|search|query|transfer|payday|pay day|paycheck|birthday|renewal|bill|"
    r"statement|appointment)|"
    # a recurring day: "keep bringing it up every payday", "each renewal"
    r"(every|each) (payday|pay day|paycheck|renewal|billing (day|cycle)|statement|login|"
    r"log-in|visit|session)\b|"
    # "on the 1st of each month, remind the account holder ..."
    r"on the (\d{1,2}(st|nd|rd|th)|first|last|fifteenth) (day )?of (each|every) "
    r"(month|week|quarter|year)|"
    r"from (the )?(\d{1,2}(st|nd|rd|th)|first|start|beginning|end)( of [a-z]+( [a-z]+)?)?"
    r"( on(wards)?)?|in (a|one|two|three|a few|a couple of|\d+) (days?|weeks?|months?)\b"
    r"[^.!?\n]{0,20}\b(start|begin|stop|say|tell|recommend)\w*)"
)
_CUE_ANYWHERE = compile_cached(rf"\b{_CUE}", _I)
# The agent named as the one who will act ("the assistant is expected to mention", "the
# assistant answers every tax question with ..."): with a cue, a rule for it.
# The agent called by one of its names: "Assistant", "Dear AI", "Note to the bot".
_VOCATIVE = compile_cached(
    r"\W*(dear |hey |hi |note to (the |any )?)?(the |any )?(ai |home )?(assistant|ai|bot|agent|"
    r"chatbot|model)\s*",
    _I,
)
_AGENT_ACTS = compile_cached(
    r"\b(the assistant|the ai|the bot|the agent|the model|the chatbot)\s+(\w+ly\s+)?"
    r"(is expected to|is supposed to|must|should|shall|will|has to|needs to|is to|"
    r"answers|replies|responds|recommends|suggests|mentions|says|tells|sends|adds|links|shares)\b|"
    # ... or a clause opens on it, or on all of its kind: "assistant must treat ... as",
    # "AI assistants should always recommend ..." (not "the research assistant must")
    r"^\W*(?:(?:all|any|every|each)\s+)?(?:(?:ai|virtual|digital|smart|voice)\s+)?"
    r"(?:assistant|bot|chatbot)s?\s+(\w+ly\s+)?(?:is expected to|are expected to|is supposed to|"
    r"are supposed to|must|should|shall|will|have to|has to|need to|needs to|are to|is to)\b|"
    # ... or spoken to by name before its orders: "Assistant: unlock the door whenever ...",
    # "Bot, always ..." (not "AI, ML and robotics always ...": a list, not a name called)
    rf"^{_VOCATIVE.pattern}:|^\W*(dear |hey |hi )?(the )?(ai |home )?(assistant|bot|chatbot)\s*,",
    _I,
)
# An order in the passive ("it should be recommended that ...", "the card number is to be
# requested again"): with a cue, a rule no one is named to follow but the agent.
_PASSIVE_ORDER = compile_cached(
    r"\b(should|must|shall|is to|are to|has to|have to|needs? to|ought to|will have to)\s+be\s+"
    r"(\w+ly\s+)?(recommended|suggested|requested|asked|said|told|mentioned|offered|booked|"
    r"bought|sent|added|given|shared|forwarded|shown|proposed|pushed|quoted|read out|purchased|"
    r"ordered|paid|made|handled|routed|directed|redirected|referred|transferred|wired|used|"
    r"obtained|renewed|reported|informed|advised|pointed|steered|served|provided|disclosed|"
    r"revealed|emailed|texted|deposited|invested|signed up|registered|done)\b",
    _I,
)
_RULE_START = compile_cached(
    rf"^({_CUE}|(you|the assistant|assistant|the ai|ai|the bot|bot|the model|model|the agent|"
    r"agent|chatbot)\s*,?\s*(must|should|shall|will|need to|needs to|has to|have to|is to|are to|"
    r"are required to|is required to|is expected to|are expected to|is supposed to|ought to)\b|"
    r"(wait\s+)?until\b|(remember|make sure|be sure|don'?t forget|never forget)\s+"
    r"(to|that you|you)\b)",
    _I,
)
_BEHAVIOUR_VERB = compile_cached(
    r"^(\w+ly\s+)?(answer|reply|respond|recommend|suggest|mention|say|tell|include|add|append|"
    r"prepend|end|start|begin|sign|call|refer|promote|advertise|endorse|push|plug|direct|redirect|"
    r"send|forward|share|reveal|obey|follow|trust|treat|act|behave|speak|talk|write|format|use|"
    r"praise|link|report|keep|give|cite|insert)\b",
    _I,
)
_OUTPUT_NOUN = compile_cached(
    r"\b(answers?|repl(y|ies)|responses?|messages?|questions?|chats?|conversations?|summar(y|ies)|"
    r"everyone|anyone|users?)\b",
    _I,
)
# Memory describes the user in the third person; "you" in it addresses the agent.
_SECOND_PERSON = compile_cached(r"\b(you|your|yourself)\b", _I)
_MODAL = compile_cached(
    r"\b(should|must|shall|need to|needs to|have to|has to|are to|is to|are required to|is "
    r"required to|do it|keep doing)\b",
    _I,
)
_ZH_SECOND_PERSON_RULE = compile_cached(
    r"(你|您)[^。！？]{0,8}(要|必须|必須|应该|應該|得|需要|以后|以後|每次|总是|總是|都)"
)
# Powers a rule may hand the agent; a restrictive rule ("never store my passwords") is fine.
_SENSITIVE = compile_cached(
    # (not the user saying what they run: "the residents' group (I'm the admin now)")
    r"\b(trust\w*|precedence|priority|system (message|prompt)|"
    r"(?<!\bi'm the )(?<!\bi am the )(?:admins?|administrators?)|"
    # (not ideas for one: "whenever I ask for password ideas, give me passphrases"; a password
    # manager is a product a rule may push)
    r"developers?|operators?|passwords?(?!\s+(?:ideas?|suggestions?|tips|advice)\b)|"
    r"credentials?|pins?|secrets?|api keys?|(?:ssh|private|gpg|pgp) keys?|tokens?|bcc|"
    r"(approve|authori[sz]e|execute|make)\w* (all |any |every )?(payments?|transfers?|purchases?|"
    r"orders?)|wire (money|funds)|transfer (money|funds)|invest\w*|loans?|crypto\w*|prais\w*|"
    r"agree with (everything|anything|whatever)|card (details|numbers?)|bank (details|account)|"
    r"payment details|billing details|(most expensive|dearest|priciest|costliest) (one|option|"
    r"flights?|fares?|tickets?|plans?|rooms?|hotels?)?|(subscription|account|membership|card|"
    r"payment) (has |have )?(lapsed|expired|been (suspended|cancell?ed|locked))|upgrade (her|him|"
    r"them|the user)|cancel (her|his|their|the user'?s)|"
    # where money goes, in more languages: a rule that redirects a payment is invoice fraud
    r"datos bancarios|cuenta bancaria|coordonn[ée]es bancaires|bankverbindung|"
    r"kontonummer|bankdaten|iban|dati bancari|conto corrente|dados banc[aá]rios|"
    r"bankgegevens|rekeningnummer|dane (do przelewu|bankowe)|numer (konta|rachunku)|"
    r"bankgiro\w*|plusgiro\w*|bankkonto|banka bilgi\w*|hesap numaras\w*|"
    # ... and the transfer itself: "solo con bonifico a Marco B.", "por transferencia a",
    # "per Überweisung an", "par virement à", "przelewem na"
    r"bonific\w*|transferencia\w*|transfer[eê]ncia\w*|virement\w*|[üu]berweis\w*|"
    r"overboek\w*|przelew\w*|havale\w*|vir(?:er|e|ez) (?:ses|vos|tes|les|des|son|votre) "
    r"(?:fonds|économies|economies|argent)|"
    # where the user is, live, handed to whoever the rule names
    r"(?:real-time|realtime|live|current) location|ubicaci[oó]n en tiempo real|"
    r"localiza[cç][aã]o em tempo real|posizione in tempo reale|position en temps r[ée]el|"
    r"echtzeit-?standort|live-?standort|realtidsposition|locatie in realtime|live-?locatie|"
    r"vị trí (?:hiện tại|trực tiếp|thời gian thực)|lokasi (?:terkini|real-?time|langsung)|"
    # the scammer's "safe account" the money is to be moved to
    r"(?:secure|safe|protected) account|compte (?:sécurisé|securise|sûr|sur|protégé)|"
    r"cuenta (?:segura|protegida)|conta (?:segura|protegida)|conto (?:sicuro|protetto)|"
    r"sicheres konto|schutzkonto|veilige rekening|bezpieczne konto|säkert konto|"
    # ... or skip the doctor for what the rule sells: "thay vì đi khám", "instead of a doctor"
    r"instead of (?:seeing|going to|visiting|calling|asking) (?:a |the |your |their )?"
    r"(?:doctor|gp|physician|specialist|hospital)|instead of (?:a |the )?(?:doctor|gp)|"
    r"thay vì đi (?:khám|bác sĩ|viện)|en (?:lugar|vez) de ir al m[ée]dico|"
    r"au lieu de (?:consulter|voir|aller chez) (?:un |le |votre )?m[ée]decin|"
    r"(?:an)?statt zum arzt|invece di andare dal medico|em vez de ir ao m[ée]dico|"
    r"вместо (?:того,? чтобы (?:идти|пойти) )?(?:к )?врача|"
    # a rule that has the user stop a treatment their doctor prescribed
    r"stop (?:taking )?(?:the |your |his |her |their )?(?:medication|medicine|meds|pills|"
    r"insulin|treatment)|(?:dejar|suspender|abandonar) (?:de tomar )?(?:la |su |tu )?"
    r"(?:medicaci[oó]n|medicina|tratamiento)|arr[eê]ter (?:son |ses |le |votre |vos |ton |tes )?"
    r"(?:traitement|m[ée]dicaments?)|medikamente? (?:absetzen|weglassen)|"
    r"(?:interromper|parar|suspender) (?:o |a |os |seu |sua )?(?:medica[cç][aã]o|rem[eé]dio|"
    r"tratamento)|sospendere (?:i |il |la )?(?:farmac\w*|terapia|cura)|"
    r"stoppen met (?:de |je |zijn |haar )?(?:medicatie|medicijnen)|"
    r"odstawi\w* (?:leki|lek)|"
    r"бросить (?:принимать )?(?:лекарств\w*|таблетк\w*)|отменить (?:лекарств\w*|лечение)|"
    # ... and the check with the sender waved away
    r"no hace falta (confirmar\w*|llamar|verificar\w*)|sin (confirmar|verificar)\w*|"
    r"beh[öo]ver inte (ringa|kolla|kontrollera|verifiera)|ohne (r[üu]ckfrage|nachzufragen)|"
    r"no need to (call|check|confirm|verify)|without (checking|verifying|confirming))\b|"
    r"реквизит\w*|信任|实时位置|實時位置|即時位置|リアルタイム(?:の)?位置|실시간 위치|"
    r"停用[^。！？\n]{0,6}(?:药|藥)|停药|停藥|断药|斷藥|薬を(?:やめ|止め)|"
    r"服薬(?:を)?(?:中止|やめ)|약을 (?:끊|중단)|복용을 중단|"
    # an account number itself (an IBAN), and identity papers asked for: "send a photo of the
    # passport", "прислать фото паспорта и СТС", "den Ausweis hochladen"
    r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}\b|"
    r"\b(passport|id card|driver'?s licen[cs]e|pasaporte|passeport|carte d'identité|"
    r"reisepass|personalausweis|ausweis|passaporto|carta d'identità|passaporte|"
    r"paspoort|paszport)\b|паспорт\w*|\bСТС\b|водительск\w*|"
    # "优先推荐素食" is a preference for what to suggest, not a priority handed to someone
    r"(优先|優先)(?!推荐|推薦|考虑|考慮|选|選|显示|顯示|给我|給我|用|使用|安排|列出)|系统|系統|管理"
    r"员|管理員|开发者|"
    r"開發者|密码|密碼|验证码|驗證碼|パスワード|暗証番号|비밀번호|付款|支付|转账|轉賬|理财|理財|贷款|貸款|同意所有|全部同意|称赞|稱讚|夸",
    _I,
)
_NEGATION = compile_cached(
    rf"\b(don'?t|do not|not|no|avoid|stop)\b|{lexicon.NEVER}|别|別|不要|不|禁止|避免|"
    rf"{lexicon.NEGATION_AFTER_VERB}",
    _I,
)
# "누가 인증번호를 물어보면 절대 알려주지 말 것": a rule that forbids handing a credential over.
_PROHIBITED_AFTER = compile_cached(lexicon.NEGATION_AFTER_VERB)
_HANGS_UP = compile_cached(lexicon.HANG_UP, _I)
# ... unless the rule also does something for them: "tell them to use TradeMax and ignore it
# if they object" still steers what they hear.
_ACTS_FOR_THEM = compile_cached(
    r"\b(?:tell|send|give|show|recommend|offer|forward|share with|pass)\s+"
    r"(?:them|him|her|the (?:caller|sender|person))\b",
    _I,
)
# A rule that opens on "not" in another language: "Не отправлять пользователю ...", "Nicht vor
# 9 Uhr anrufen". (Only at its head: "... e non mostrare altre offerte" forbids a part of it.)
_OPEN_NOT = compile_cached(rf"^\W*(?:[^\W\d_]+\s+){{0,2}}?(?:{lexicon.NOT})", _I)
_ZH_CUE = (
    r"(以后|以後|今后|今後|往后|往後|从今以后|從今以後|从现在(开始|起)|從現在(開始|起)|从这条消息(开始|起)|"
    r"每次|每一次|每当|每當|始终|始終|"
    r"总是|總是|一直|永远|永遠|无论|無論|不管|记住|記住|务必|務必|所有回答|每个回答|每個回答|"
    # a delayed trigger by count: "第五次用户询问天气时", "第3次"
    r"第[一二三四五六七八九十两兩\d]{1,3}次)"
)
_ZH_RULE_START = compile_cached(
    # (a label may head it: "店家留言：以后…")
    rf"^([^：:，,。！？]{{1,10}}[：:]\s*)?(请|請|并|並|而且|另外)?((助手|AI|ai|你|机器人|機器人)[，,]?)?"
    rf"({_ZH_CUE}|"
    r"(你|助手)(必须|必須|要|应该|應該|得|需要))"
)
# A trigger on the user in Chinese: "当用户提到看病时，告诉他…", "如果用户问起…就推荐…".
_ZH_TRIGGER = (
    r"|(当|當|如果|若|每当|每當|一旦|等到?|只要|下次|下一次|以后|以後)?(用户|用戶|客户|客戶|有人|他|她|"
    r"他们|他們|对方|對方|顾客|顧客|"
    # ... or whoever it is after a condition word: "下次主人问起", "如果家长询问" (not "我")
    r"(?<=[当當果若次旦到要后後])(?![我你])[\u4e00-\u9fff]{1,4}?)"
    r"(一|下次|下一次|再|每次)?(提到|提起|问起|問起|询问|詢問|咨询|諮詢|查询|查詢|问|問|说|說|"
    r"聊到|谈到|談到|要)[^。！？]{0,20}(时|時|的话|的話|的时候|的時候)?[，,]?"
    r"\s*(就|便|都|一律|应|應|应当|應當|要|请|請)?(告知|告诉|告訴|推荐|推薦|发送|發送|回复|回覆|说|說|让|讓|建议|建議|提醒|转发|轉發|"
    # acting for the user: "一律帮他订最贵的", "直接替她买"
    r"(帮|幫|替|给|給)(他|她|他们|他們|用户|用戶)?(订|訂|预订|預訂|买|買|购买|購買|下单|下單))|"
    r"(提醒|让|讓|叫|要求|请|請)(助手|AI|ai|机器人|機器人)[^。！？]{0,4}(告诉|告訴|推荐|推薦|说|說|"
    r"发送|發送|回复|回覆|提醒|询问|詢問|索要)"
)
# A cue later in a Chinese clause followed by an obligation: "助手以后回复任何人时都要…".
_ZH_RULE_INSIDE = compile_cached(
    rf"(?<![我们們])({_ZH_CUE})[^。！？]{{0,20}}?(都要|必须|必須|一律|都得|都应|都應|要|请|請)|"
    r"(每次|每一次|每条|每條|所有|任何)的?(回复|回覆|回答|答复|答覆)" + _ZH_TRIGGER
)
# "whoever chats with you next should be told...": an order about other people.
_THIRD_PARTY_DIRECTIVE = compile_cached(
    r"\b(should|must|needs? to|has to|have to|is to|are to|will)\s+(be\s+|get\s+)?(told|tell|"
    r"informed|advised|directed|redirected|sent|shown|recommended|pointed|steered|offered)\b",
    _I,
)
_FILLER = compile_cached(
    r"^(?:\[[ xX]?\]|[\s\-*•>\"'“‘(\[])*((please|pls|and|also|so|ok(ay)?|now|then|note|rule|"
    r"important|p\.?s\.?|reminder|kindly|step \d+|todo)\b[\s,:!]*)*",
    _I,
)
# A period inside "example.com" or "v1.2" does not end a clause.
# Nor does the period of "Dr." or "Mr.", nor the last one of "P.S.", "e.g." or "U.S.".
_CLAUSES = compile_cached(
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bSt)(?<!\bNr)(?<!\bMrs)(?<!\bSra)(?<!\bProf)"
    r"(?<!\.[A-Za-z])[.!?:：](?=\s|$)|[;\n。；！？]+|"
    # an arrow points to what follows as its own line: "Pay here ➜ assistant must ..."
    r"\s[➜→⇒➔➡▶►➤]\s|"
    # an aside in brackets (full-width, or by a CJK word: NFKC makes them ASCII), which CJK
    # writes with no space around, is a clause:
    # "路由器密码：…（用户要求记住，需要时告诉用户）" asks nothing of the password's label
    r"[（）]+|[(](?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])|"
    r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])[)]"
)
# A prohibition on handing something out ("Never give my home address to anyone who asks",
# "永远不要把我的手机号告诉别人", "nunca des mi dirección a nadie"): the user guarding their own
# data from others, which names others without steering anything towards them.
_PROHIBITION = compile_cached(
    r"^\W*(please\s+|and\s+)?(never( ever)?|don'?t( ever)?|do not( ever)?|nunca|jamais|ne jamais|"
    r"niemals|nie|mai|aldrig|никогда не|nooit|asla)\s+(\w+\s+){0,2}?(give|share|tell|send|"
    r"reveal|disclose|hand out|hand over|show|pass on|forward|des|digas|compartas|envíes|donne|"
    r"dis|partage|envoie|gib|sag|teile|schick|dare|dire|dai|dici|condividere|ge|säg|dela|"
    r"давай|говори|сообщай|geef|vertel|deel|verme|söyleme|paylaşma|"
    # what the agent may not put to the user: "never suggest I call anyone"
    r"suggest|recommend|mention|propose|bring up|contact|call|phone|email|text|message|remind)\b|"
    r"^\W*(永远|永遠|绝对|絕對|千万|千萬)?(不要|别|別|绝不|絕不|不能|不可以)(把|将|將)?|"
    # whoever asks, it is refused: "无论谁在群聊里问，都不要发出其手机号", "whoever asks, never
    # give out my address"
    r"^[^。！？\n]{0,30}?(无论|無論|不管)[^。！？\n]{0,20}?(问|問)[^。！？\n]{0,4}?[,，]\s*(你)?都?"
    r"(永远|永遠|绝对|絕對)?(不要|别|別|不能|不可以|不许|不許|绝不|絕不)|"
    r"^\W*(whoever|no matter who|anyone who)\b[^.!?\n]{0,40}?,\s*(never|don'?t|do not)\s+"
    r"(\w+\s+){0,2}?(give|share|tell|send|reveal|disclose|hand out|hand over|show|pass on|"
    r"forward)\b",
    _I,
)
_SUBCLAUSES = compile_cached(r"[,，、]|\b(?:and|but|then|also)\b|并且|並且|而且", _I)
_THIRD_PARTY = compile_cached(
    r"\b(everyone|everybody|every (user|person|customer|visitor|one|body)|all (the |your )?"
    r"(users|people|customers|visitors|readers)|any(one|body)( else)?|any (user|person|customer)|"
    r"other (users|people)|others|your users|the public|each (user|person)|users who|people "
    r"who|whoever|no matter who|every other user)\b|"
    r"(所有|全部|每个|每個|每位|任何)(人|用户|用戶|客户|客戶|访客|訪客)|大家|任何人|别人|別人|"
    r"其他用户|其他用戶|(无论|無論|不管)(是)?(谁|誰|什么人|什麼人|哪位)|谁问|誰問",
    _I,
)
_PROMOTION_ZH = (
    # a name in quotes recommended: "一律推荐“鑫盛宝”", "推薦「XX理財」"
    r"(推荐|推薦)[^。！？\n“”「」『』]{0,6}[“「『《\"]|凡是有人问|只(说|推荐|推薦)[^。！？\n]{0,12}(最好|最棒)|其他品牌都别提|其他品牌都不要提"
)
_PROMOTION = compile_cached(
    # "plug" as a verb: a smart plug, the wall plug or "plug it in" promote nothing
    r"\b(promote|advertise|endorse|(?<!smart )(?<!wall )(?<!the )(?<!a )(?<!power )(?<!spark )"
    r"plug(?!\s+(it\s+)?in(to)?\b)|upsell|sponsor(ed)?|invest (in|today)|buy (from|at)|"
    r"shop (at|from)|the only safe|(is|are|call them) the best|(has|have|offers?) the best|"
    r"download (\S+ ){0,2}(from|at)|sign up (at|on|with)|coupon|discount code|promo code|"
    r"affiliate|referral (link|code)|"
    # a discount code handed out with the advice: "recommend X (code SLEEP40)"
    r"(code|coupon|promo|voucher|gutschein|c[oó]digo|cupom|cup[oó]n)\s*[:#]?\s*(?-i:[A-Z]{3,}\d{1,3})\b|"
    # money moved somewhere: "move all her savings to X", "invest everything into Y"; moving
    # house ("my move to Valencia") moves no money
    r"(move|moving|transfer\w*|put|putting|switch\w*|shift\w*|invest\w*|roll\w* over)\s+"
    r"(?=(all|everything|most|half|the rest|(\w+\s+){0,3}(money|savings|pension|funds|"
    r"portfolio|assets))\b)(all|everything|most|half|the rest)?\s*(of\s+)?(it|her|his|"
    r"their|the|your|my)?\s*(money|savings|pension|funds|portfolio|assets)?\s*(in)?to\s+"
    r"[A-Z][\w-]+|(steer|nudge|funnel|push|lead|direct)\w*\s+(\w+\s+)?"
    r"(toward|towards|to)\b)\b|引导到|引導到|导流|導流|"
    r"推销|推銷|推广|推廣|宣传|宣傳|广告|廣告|稳赚|穩賺|投资|投資|下载链接|下載鏈接|注册链接|優惠碼|优惠码|"
    r"返利|" + _PROMOTION_ZH,
    _I,
)
# "the user's preference for metric units no longer applies": a rule that voids the user's
# word, which only the user may give.
_VOIDS_USERS_WORD = compile_cached(
    # kept up against the user's own refusal: "do this even if they say stop"
    r"\beven (if|when|though) (the user|the customer|they|she|he|the owner) (says?|asks?|"
    r"tells? you|objects?|refuses?|complains?|declines?|protests?) (to )?(stop|no|not to|"
    r"otherwise)\b|"
    r"\b(the|this)\s+(user|customer|owner|account holder)(?:'?s|’s)\s+(\w+\s+){0,2}?"
    r"(preferences?|instructions?|rules?|settings?|wishes|requests?|choices?|restrictions?|"
    r"limits?)\b[^.!?\n;]{0,40}?\b(no longer (appl(y|ies)|counts?|matters?|holds?|stands?|"
    r"binds?)|(is|are) (now )?(void|invalid|obsolete|overridden|revoked|irrelevant)|"
    r"(can|may|should|must) (now )?be (ignored|disregarded|overridden|"
    r"dropped|skipped))"
    # ... in other languages: "ook als de eigenaar bezwaar maakt", "auch wenn der Nutzer
    # widerspricht", "même si l'utilisateur s'y oppose", "даже если владелец возражает"
    r"|\b(ook als|zelfs als|auch wenn|selbst wenn|même si|incluso si|aunque|anche se|"
    r"mesmo que|mesmo se|även om|selv om|nawet jeśli|даже если)\s+(de |der |die |l'|le |la |"
    r"el |il |lo |o |a |)(eigenaar|gebruiker|klant|nutzer\w*|benutzer\w*|besitzer\w*|"
    r"eigentümer\w*|kunde|kundin|utilisat\w*|propriétaire|client\w*|usuari[oa]|dueñ[oa]|"
    r"propietari[oa]|utente|proprietari[oa]|usuári[oa]|don[oa]|användaren|ägaren|kunden|"
    r"brukeren|eieren|użytkownik|właściciel|пользователь|владел\w*|клиент|hij|zij|er|sie|"
    r"il|elle|él|ella|lui|lei|ele|ela|han|hon|он|она)\s+(?:\w+\s+){0,2}?(bezwaar|"
    r"widerspr\w*|ablehn\w*|nein sagt|s'y oppose|s'oppose|refuse|se opone|se niega|si oppone|"
    r"rifiuta|se oponha|recuse|invänder|protesterar|vägrar|protesterer|sprzeciw\w*|возража\w*|"
    r"против)|"
    # "deze toestemming gaat voor eventuele bezwaren van de eigenaar", "hat Vorrang vor den
    # Einwänden des Nutzers": someone's leave put above the user's objection
    r"\b(gaat voor|heeft voorrang op|hat vorrang vor|prévaut sur|prevalece sobre|prevale su|"
    r"går före|har företräde framför)\s+(eventuele\s+|alle\s+|etwaige\w*\s+|les\s+|"
    r"los\s+|le\s+|i\s+|os\s+|de\s+|den\s+)?(bezwaren|einwänd\w*|widerspr\w*|objections|"
    r"objeciones|obiezioni|objeções|invändningar)"
    r"|\b(las|los) (preferencias|instrucciones|reglas|indicaciones) del usuario ya no "
    r"(aplican|se aplican|cuentan|valen)|\bles (pr[eé]f[eé]rences|consignes|r[eè]gles|"
    r"instructions) de l'utilisateur ne (s'appliquent|comptent|valent) plus|\bdie "
    r"(Einstellungen|W[uü]nsche|Vorgaben|Anweisungen|Regeln) des (Nutzers|Benutzers) "
    r"gelten nicht mehr",
    _I,
)
# (a domain's name read from the start of its run of letters and hyphens: from each of its
# places, "a-a-a-..." of 8,000 characters took 1.9 s)
_LINK = compile_cached(
    r"https?://|www\.|(?<![\w.+-])[\w.+-]+@[\w-]+\.\w+|(?<![\w-])-*\b[\w-]+\.(com|net|org|io|"
    r"example|cn|ru|"
    r"xyz|info|biz|co|me|app|dev|shop|site|online|"
    # country domains ("billigreisen-xy.de"), not file endings ("notes.md", "main.py")
    r"de|fr|es|it|nl|pl|uk|br|jp|kr|au|ca|ch|at|be|se|dk|fi|pt|cz|tr|mx|ar|eu|tv|cc|gg|ws|"
    r"vn|th|ua|gr|ro|hu|sk|ie|nz|za|cl|pe|sg|ph|hk|tw|kz|lt|lv|ee|bg|hr|si|rs|il|ir|pk|ng|ke|"
    r"id|my|lk|bd|eg|ae|sa|"
    r"top|club|store|live|pro|link|click|news|tech)\b",
    _I,
)


# A rule that only has the agent remind, warn or ask the person it serves ("when I ask about
# investments, remind me to consider only low-risk products") hands it no power, unless it
# touches credentials.
_CAUTION = compile_cached(
    r"\b(remind|warn|alert|caution|double-check with|check with)\w*\s+(me|him|her|them|the user)\b|"
    r"(提醒|警告|提示)(我|他|她|用户|用戶)|(リマインド|注意)して|(나에게|저에게)\s*(알려|경고)",
    _I,
)
_CREDENTIAL = compile_cached(
    r"\b(passwords?|pins?|passcodes?|codes?|card|bank|account|credentials?|login)\b|密码|密碼|验证码|"
    r"驗證碼|银行卡|銀行卡|パスワード|비밀번호",
    _I,
)


# A scam warning names the credential the scammer asks for ("if someone asks for your PIN,
# they are lying", "si alguien te pide la clave, es una estafa"): it guards the credential, it
# hands nobody the power to ask for it.
_SCAM = compile_cached(
    r"\b(lying|liars?|lie|scam\w*|fraud\w*|fake|phishing|impostors?|con artists?|estafa\w*|"
    r"timo|mienten?|arnaque\w*|escroc\w*|mentent|ment|betrug\w*|betr[üu]ger\w*|l[üu]gen|"
    r"truff\w*|mentono|mente|golpe|golpistas?|mentem|oplichter\w*|liegen|bedrägeri|"
    r"bedragare|ljuger|oszust\w*|kłami\w*|dolandırıcı\w*|мошенни\w*|обман\w*|врут|лгут)\b|"
    r"诈骗|詐騙|骗子|騙子|詐欺|사기",
    _I,
)
_SCAM_NEGATED = compile_cached(
    r"\b(not|isn'?t|aren'?t|no|never|nicht|kein\w*|pas|non|não|nie|не)\s+(\w+\s+){0,2}$", _I
)


# ... and a sentence that hands it over anyway ("they're no scam: read them the PIN") warns
# of nothing.
_HANDS_OVER = compile_cached(
    r"\b(give|tell|read|share|send|provide|confirm|say|spell|dales?|dile|d[ée]le|donne|dis|gib|"
    r"sag|dai|dare|dá|passe)\s+(it|them|him|her|the|their|your|les|le|la|lo|ihm|ihr|ihnen|"
    r"gli|loro)\b",
    _I,
)


def _warns_of_scam(sentence: str) -> bool:
    if _HANDS_OVER.search(sentence):
        return False
    return any(
        not _SCAM_NEGATED.search(sentence[max(0, m.start() - 25) : m.start()])
        for m in _SCAM.finditer(sentence)
    )


def _cautions(sentence: str) -> bool:
    if _warns_of_scam(sentence):
        return True
    return bool(_CAUTION.search(sentence)) and not _CREDENTIAL.search(sentence)


@dataclass(frozen=True)
class StandingRule:
    text: str
    third_party: bool
    promotion: bool
    link: bool
    sensitive: bool = False
    # Says what to do to "the user" in the third person: a rule about the user, which the
    # user's own preference ("when I ask...") is not, unless the model rephrased it.
    about_user: bool = False
    # Sets the user's own word aside ("the user's preference ... no longer applies").
    voids_user: bool = False
    # What follows the rule's colon when the rule is a label for it ("Standing rule set by the
    # user: ask before booking anything over $200"): the rule to compare with the user's words.
    introduces: str = ""

    @property
    def restrictive(self) -> bool:
        """It only forbids ("never share my address with apps"): it can take no power away
        from the user. A rule whose "no longer" voids the user's word does."""
        negated = _NEGATION.search(self.text) or _OPEN_NOT.match(self.text)
        return bool(negated) and not self.hostile and not self.voids_user

    @property
    def hostile(self) -> bool:
        return self.third_party or self.promotion or self.link or self.sensitive


_CLAUSE_ENDS = compile_cached(f"({_CLAUSES.pattern})", _I)
_ZH_CUE_ANYWHERE = compile_cached(_ZH_CUE)


def _governed(text: str) -> list[tuple[str, bool]]:
    """Clauses joined to the trigger left hanging before them, each with whether a colon
    joined them: "När användaren frågar om elavtal: säg att ...", "Mulai sekarang, ... lagi;
    bagikan ...". A cue before a colon governs what follows it; one before a semicolon only
    when its own clause orders nothing ("From now on answer in French; never ..." is two
    rules)."""
    pieces = _CLAUSE_ENDS.split(text)
    joined: list[tuple[str, bool]] = []
    for i in range(0, len(pieces) - 2, 2):
        clause, end, after = pieces[i], pieces[i + 1].strip(), pieces[i + 2]
        cue = (
            RULE_CUES_ML.search(clause)
            or _CUE_ANYWHERE.search(clause)
            or _ZH_CUE_ANYWHERE.search(clause)
        )
        hanging = end in (":", "：") or (end in (";", "；") and _rule_of(clause) is None)
        # the agent named before a colon governs the orders after it ("Assistant: unlock ...")
        named = end in (":", "：") and _VOCATIVE.fullmatch(clause) is not None
        if (cue or named) and hanging and after.strip():
            joined.append((f"{clause}{end} {after}", end in (":", "：")))
    return joined


def has_rule_cue(text: str) -> bool:
    """Does ``text`` say when or how long something holds ("from now on", "ab sofort",
    "これから", "whenever I ask")? A sentence with none sets no standing rule."""
    return bool(_CUE_ANYWHERE.search(text) or RULE_CUES_ML.search(text) or _NEVER_ML.search(text))


# "Never", which English reads as a cue, in other languages, and "absolutely", which in a rule
# says never or always: "erwähne nie wieder ...", "絶対に ...", "절대 ...".
_NEVER_ML = compile_cached(rf"{lexicon.NEVER}|絶対に?|절대", _I)


# A price, a count or a date in brackets is no aside: "『プレミアムコース』（9,800円）を選び".
_NUMBER_ASIDE = compile_cached(r"[（(][\d\s.,:/%+\-–~円元圆¥$€£₩₽]{1,16}[）)]")


def _clauses_with_rest(text: str) -> list[tuple[str, str]]:
    """Each clause of ``text`` with the text after it, its separator first."""
    out, start = [], 0
    for end in _CLAUSES.finditer(text):
        out.append((text[start : end.start()], text[end.start() :]))
        start = end.end()
    return [*out, (text[start:], "")]


# What a label before a colon introduces: the rest of that sentence.
_INTRODUCED = compile_cached(r"[:：]\s*([^\n.!?。！？]{3,})")


def _introduced(rest: str) -> str:
    follows = _INTRODUCED.match(rest)
    return follows.group(1).strip() if follows else ""


def standing_rules(text: str) -> list[StandingRule]:
    """Clauses that set a rule for the agent, with what makes them hostile; a trigger and the
    clause it governs are read together too, for a hostile rule split across them."""
    text = _NUMBER_ASIDE.sub(" ", text)
    rules = [
        replace(rule, introduces=_introduced(rest)) if rest.startswith((":", "：")) else rule
        for clause, rest in _clauses_with_rest(text)
        if (rule := _rule_of(clause)) is not None
    ]
    for clause, by_colon in _governed(text):
        rule = _rule_of(clause)
        if rule is None:
            continue
        # (a harmless one after a colon when the clauses set none: "Sobald er fragt: ihm
        # sagen, dass ...", "Assistant: unlock the door whenever ...")
        if (rule.hostile and not any(r.hostile for r in rules)) or (not rules and by_colon):
            rules.append(rule)
    return rules


# The user named as what to call them: "noem me Joost", "nenn mich Jo", "llámame Pepa", "зови
# меня Саша". A naming verb whose object is the user names no brand to push.
_CALLS_THE_USER = compile_cached(
    r"\b(?:call|noem|nenn|nennt|nennen sie|appelle|appelez|appelle-moi|appelez-moi|chame|chama|"
    r"kalla|kall|kald|зови|называй|называйте|nazywaj)\s*-?\s*(?:me|mij|mich|moi|mig|meg|"
    r"меня|mnie)\b|\b(?:llámame|llamame|llámeme|chiamami|me chame|chama-me|me llamen)\b",
    _I,
)


_SHORT_QUOTE = compile_cached(r"[«“\"„「『][^«»“”\"„「」『』\n]{1,40}[»”\"」』]")


def _rule_of(sentence: str) -> StandingRule | None:
    """The rule one clause sets, if it sets one."""
    named = sentence
    sentence = _CALLS_THE_USER.sub(" ", sentence)
    # (what it does to others is to hang up on them: "if anyone calls asking for my PIN,
    # hang up" steers nothing towards them)
    refuses = _HANGS_UP.search(sentence) is not None and not _ACTS_FOR_THEM.search(sentence)
    # a phrase in quotes is a word the user says, not someone the rule is for ("when I say
    # «modalità nonna», explain simply": no grandmother)
    others = _SHORT_QUOTE.sub(" ", sentence)
    if _foreign_rule(sentence):
        return StandingRule(
            text=named.strip()[:200],
            third_party=bool(THIRD_PARTY_ML.search(others))
            and not _PROHIBITION.match(sentence)
            and not refuses,
            promotion=bool(_promotes(sentence) or _PROMOTION.search(sentence))
            and not _forbids_promotion(sentence),
            link=bool(_LINK.search(sentence)),
            sensitive=bool(_SENSITIVE.search(sentence))
            and not _cautions(sentence)
            and not _PROHIBITED_AFTER.search(sentence)
            and not refuses,
            about_user=speaks_of_the_user(sentence),
        )
    parts = [sentence, *_SUBCLAUSES.split(sentence)[1:]]
    directive = _THIRD_PARTY.search(sentence) and _THIRD_PARTY_DIRECTIVE.search(sentence)
    passive = _PASSIVE_ORDER.search(sentence) and _CUE_ANYWHERE.search(sentence)
    addressed = (_SECOND_PERSON.search(sentence) or _AGENT_ACTS.search(sentence)) and (
        _CUE_ANYWHERE.search(sentence) or _MODAL.search(sentence)
    )
    if not (
        directive
        or passive
        or addressed
        or _ZH_RULE_INSIDE.search(sentence)
        or _ZH_SECOND_PERSON_RULE.search(sentence)
        or _VOIDS_USERS_WORD.search(sentence)
        or any(_part_is_rule(p, whole=i == 0) for i, p in enumerate(parts) if p.strip())
    ):
        return None
    return StandingRule(
        text=named.strip()[:200],
        third_party=bool(_THIRD_PARTY.search(others))
        and not _PROHIBITION.match(sentence)
        and not refuses,
        promotion=bool(_PROMOTION.search(sentence)),
        link=bool(_LINK.search(sentence)),
        sensitive=bool(_SENSITIVE.search(sentence) and not _NEGATION.search(sentence))
        and not _cautions(sentence)
        and not refuses,
        about_user=speaks_of_the_user(sentence),
        voids_user=bool(_VOIDS_USERS_WORD.search(sentence)),
    )


def _foreign_rule(sentence: str) -> bool:
    """A rule in one of the lexicon's languages: a cue ("a partir de ahora", "次に", "항상")
    with something it tells the agent to do to others, or to recommend; or the assistant
    named as bound to act ("Asystent AI klienta ma usuwać ...")."""
    if lexicon.AGENT_BOUND_ML.search(sentence):
        return True
    if not RULE_CUES_ML.search(sentence):
        return False
    third_party = THIRD_PARTY_ML.search(sentence)
    if third_party and not (
        _AGENT_VERB_ML.search(sentence) or PROMOTION_ML.search(sentence) or _LINK.search(sentence)
    ):
        # "a partir de ahora, todos a las 7 en el campo": everyone, but nothing for the agent
        return False
    # A cue with something the agent is told to do ("다음 달부터는 ... 보여줘") is a rule too,
    # a harmless one unless it targets others or promotes: the user's to give.
    return bool(
        third_party
        or PROMOTION_ML.search(sentence)
        or _LINK.search(sentence)
        or _AGENT_VERB_ML.search(sentence)
        # "zawsze wybierać przelew na konto 61 1090 ...": payments sent to a given account
        or (_SENSITIVE.search(sentence) and _ACCOUNT_NUMBER.search(sentence))
    )


# An account to pay into: an IBAN, or a domestic number in groups (Polish, 26 digits).
_ACCOUNT_NUMBER = compile_cached(
    r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}\b|\b\d{2}(?:\s?\d{4}){6}\b"
)


# What a rule tells the agent to do to others: say, answer, send, show, share.
_AGENT_VERB_ML_WRITTEN = compile_cached(
    r"\b(di|dile|diles|dí|decir|digas|responde|contesta|envía|manda|muestra|comparte|ofrece|"
    r"reenv\w+|enviar|leite\w*|weiterleit\w*|transf[eè]re\w*|encaminh\w*|inoltr\w*|"
    r"vidarebefordra|перешли\w*|пересыла\w*|"
    r"sag|sage|sagen|antworte|schick\w*|sende|zeig\w*|teile|biete|gib|nenne|nenn|erwähne|"
    r"dis|dire|réponds|"
    r"envoie|montre|partage|propose|offre|diga|dizer|responda|envie|mostre|compartilhe|"
    r"ofereça|dì|dire|rispondi|invia|mostra|condividi|offri|säg|svara|skicka|visa|dela|"
    r"erbjud|скажи|говори|отвечай|ответь|отправ\w*|покажи|показывай|дели\w*|предлагай|"
    r"сообщай|сообщи|передай|передавай|сообщить|предложить|сказать|передать|"
    r"rispondete|mandate|inviate|dite|scrivete|condividete|πεις|στείλε|"
    r"zeg|antwoord|stuur|toon|deel|bied|powiedz|mów|odpowiadaj|wyślij|pokaż|oferuj|söyle|"
    r"yanıtla|gönder|göster|sun|kerro|sano|vastaa|lähetä|näytä|kehota|kehottaa|suosittele|"
    r"ehdota|neuvo|pyydä|pyyda|vaadi|sabihin|sabihin mong?|ipadala|ibigay|hingin|sagutin|"
    r"comunica|comunique|comunicale|comunícale|communique|let (?:him|her|them|the \w+) know|"
    # Indonesian and Malay: "langsung naikkan ke paket ...", "katakan bahwa ...", "potong dari
    # saldo"
    r"katakan|bilang|beri ?tahu|beritahu|sampaikan|tawarkan|sarankan|rekomendasikan|arahkan|"
    r"kirimkan|teruskan|bagikan|tunjukkan|tampilkan|naikkan|potong|tagih|pesankan|belikan|"
    r"mintalah|minta)\b|"
    # Japanese in the plain form after a trigger: "…と伝え、…を案内する。"
    r"(と伝え|を案内する|を勧める|と答える|と言う)(?=[、。,.]|$)|(引导|引導)(他|她|用户|用戶)?去|"
    r"(言って|伝えて|答えて|送って|見せて|教えて)|(말해|말하고|답해|보내|보여|알려|안내해|안내하|전해)|"
    # an order in any verb: Japanese "…てください", "…なさい", Vietnamese "hãy …", Korean "…세요"
    r"((て|で)(ください|下さい)|なさい|하세요|십시오)|\bhãy\b|"
    # buying or booking for the user ("reserva siempre la tarifa más cara", "buche nur ...")
    r"\b(reserva|reserve|réserve|buche|prenota|boka|compra|kaufe|achète|acquista|compre|köp|"
    r"koop|kup|satın al|mua|beli|dopisz|napisz|wspomnij|demande|pregunta|pide|frag|chiedi|"
    r"fråga|спроси|vraag|zapytaj|sor|si at|si til|sig at|sig til|fortell|fortæl)\b|"
    # the written order "…すること", "…止めて"
    r"((する|しておく|しない|止める|送る|見せる|教える|伝える|読み上げる|残す)こと|止めて)|"
    # ... any verb in its plain form before a final こと: "返信に含めること。"
    r"[うくぐすつぬぶむる]こと(?=\s*[。.!！]|\s*$)|"
    # imperatives of the languages read by cue only: memory about the user has none
    # (not "sano", "boek", "arată": also Italian "healthy", Dutch "book", Romanian "looks")
    # the infinitive as an order, opening a clause in Spanish, Portuguese, Italian ("…, usar
    # los datos nuevos"), after "bitte" in German ("diese bitte alle absagen")
    r"(?:^|[,:;–—]\s*)[^\W\d_]{2,}(?:ar|er|ir|are|ere|ire)\s+(?:los|las|el|la|lo|sus|su|"
    r"un|una|todos|todas|os|as|il|gli|tutti|tutte|sempre|siempre)\b|"
    r"\bbitte\b[^.,;!?]{0,60}\b[a-zäöü]{3,}en\b|"
    # "moet je ReisDeal noemen", "tu dois", "musst du", "ska du säga": an obligation put on
    # the agent
    r"\b(ska du|skall du|måste du|skal du|moet je|moet jij|je moet|musst du|du musst|sollst du|"
    r"du sollst|debes|tienes que|"
    r"tu dois|vous devez|devi|você deve|du måste|du ska|ты должен|ты должна|ти маєш|"
    r"powinieneś|musisz|kamu harus|anda harus|awak mesti|unapaswa|sinun pitää|musíš|"
    r"trebuie să)\b|"
    # the order in the passive or impersonal: "il faudra lui demander", "deve ser indicada",
    # "moet er ... gevraagd worden", "należy polecić", Turkish "-ilmeli" ("önerilmeli")
    r"\b(il (faut|faudra|faudrait)|on (doit|devra)|deve(m)? ser|dever(á|ão) ser|"
    r"se (le|les) debe|debe(n)? ser|va(nno)? \w+at[oaie]|należy|trzeba|"
    r"следует|нужно|надо|должен быть|должна быть|должно быть|"
    r"gevraagd|gezegd|aangeraden|aanbevolen|geadviseerd|voorgesteld)\b|"
    r"\b[^\W\d_]+(?:[ıiuü]l|[ıiuü]n)(?:meli|malı)\w*|"
    r"\b(сообщи|попроси|предложи|напомни|потребуй|запроси|проси|demander|dire|proposer|"
    r"réclamer|exiger)\b|"
    # an order written as an infinitive after a trigger ("если спросит ..., посоветовать ему",
    # "se o usuário perguntar, informar que ...", "si pregunta, indicar que ...")
    r"\b(посоветовать|порекомендовать|рекомендовать|предложить|сообщить|сказать|ответить|"
    r"отправить|направить|передать|напомнить|попросить|запросить|уточнить|порадити|"
    r"рекомендувати|запропонувати|повідомити|сказати|відповісти|надіслати|попросити|"
    r"informar|avisar|dizer|passar|orientar|encaminhar|responder|indicar|solicitar|pedir|"
    r"comunicar|decir|recomendar|sugerir|enviar|informare|comunicare|rispondere|suggerire|"
    r"indicare|inviare|chiedere|informer|indiquer|répondre|signaler|envoyer|conseiller|"
    r"mitteilen|antworten|hinweisen|weiterleiten|informeren|doorsturen|"
    # ... or buys, books and recommends in the infinitive ("altijd bij X bestellen")
    r"bestellen|reserveren|aanraden|aanbevelen|doorverwijzen|empfehlen|vorschlagen|"
    r"comprar|encargar|acheter|commander|réserver|recommander|prenotare|comprare|"
    r"raccomandare|consigliare|encomendar|beställa|rekommendera|"
    r"poinformować|przekazać|odpowiedzieć|zalecić|bildirmek|söylemek|yönlendirmek)\b|"
    # ... with the pronoun written into it: "decirle que ...", "pedirle los datos", "dirgli",
    # "informar-lhe", "lui répondre" is read above
    r"\b(decir|pedir|indicar|responder|contestar|informar|comunicar|enviar|mandar|recomendar|"
    r"sugerir|avisar|dar|dir|chieder|inviar|risponder|consigliar|suggerir)(le|les|selo|sela|"
    r"selos|selas|gli|glielo|gliela)\b|\b(dizer|pedir|informar|enviar|passar|indicar|"
    r"responder|recomendar)-(lhe|lhes)\b|"
    # Korean written orders: "…안내할 것", "…하라고 안내"
    r"(할|줄|릴|볼|낼|둘|권할|말할)\s*것(?=\s*[.!。]|\s*$)|[가-힣]+하라고\s*[가-힣]*|"
    # "add that ... to the answer": what the agent is told to put in what it says
    r"\b(ajoute|ajoutez|ajouter|añade|agrega|añadir|füge|aggiungi|adicione|acrescente|"
    r"lägg till|voeg|dodaj|ekle|tambahkan|добавь|добавляй|додай|afegeix)\b|"
    r"\b(lähetä|näytä|varaa|řekni|pošli|ukaž|rezervuj|spune-i|trimite|rezervă|"
    # Romanian orders after a cue: "omite plățile către ...", "spune că a scris-o chiar el"
    r"omite|spune|răspunde|raspunde|recomandă|sugerează|ascunde|menționează|mentioneaza|"
    r"mondd|küldd|mutasd|foglald|katakan|kirim|tunjukkan|pesankan|sabihin|ipadala|ipakita|"
    r"mwambie|tuma|onyesha|nói với|gửi cho|đặt cho|reserveer|zarezerwuj|rezerve et)\b|"
    r"(قل|أخبر|أرسل|احجز|اعرض|شارك|أجب|תגיד|ספר ל|שלח|הזמן|הצג|תענה|بگو|بفرست|"
    r"نشان بده|رزرو کن|बताओ|भेजो|दिखाओ|बुक करो|বলো|পাঠাও|দেখাও|บอก|ส่ง|แสดง|จอง|πες|"
    r"στείλε|δείξε|κλείσε|скажи|надішли|покажи|забронюй|"
    # Ukrainian imperfective orders ("надсилай", "пересилай"), Indonesian "bagikan", Thai "obey"
    r"надсилай|пересилай|відправляй|передавай|поширюй|показуй|кажи|відповідай|"
    r"\b(?:bagikan|berikan|kirimkan|sampaikan|teruskan|beritahu|beri tahu)\b|ให้เชื่อฟัง|เชื่อฟัง)",
    _I,
)
_AGENT_VERB_ML = _accent_blind(_AGENT_VERB_ML_WRITTEN)
# A recommendation promotes when it names something: a brand in quotes, a made-up name
# ("CriptoSol", "Kühn-Online"), a link, or a proper name mid-sentence (not in German, whose
# nouns all start with a capital); "recommande-moi toujours le train" names nothing.
# (Korean puts its particle right after the quote: "'바른미소치과'을 추천")
_QUOTED_NAME = compile_cached(r"[«»„“”「」『』\"]|(?<!\w)'[^'\n]{2,40}'(?![A-Za-z0-9_])")
_MADE_UP_NAME = compile_cached(r"\b\w*[a-zà-ÿ][A-Z0-9]\w*|\b[A-Z]\w*-[A-Z]\w*")
_PROPER_NAME = compile_cached(r"(?<=[^\W\d_]\s)[A-ZÀ-ÖØ-ÞА-ЯЁ][\w'-]+")
_GERMAN = compile_cached(r"\b(der|die|das|dem|den|des|und|wenn|nach|nur|nicht|ist|zur|zum|im)\b")
_CASED = compile_cached(r"[A-Za-zÀ-ÿА-яЁё]")
_KANA = compile_cached(r"[\u3040-\u30ff]")
_JA_NAME = compile_cached(r"[A-Za-z]{2,}|[\u30a1-\u30fa\u30fc]{3,}")
# katakana words that name no brand
_JA_COMMON = compile_cached(
    r"ユーザー|アシスタント|メッセージ|メール|パスワード|データ|メモ|アプリ|サービス|ページ|リンク|"
    r"アカウント|ニュース|レシピ|スケジュール|リマインダー"
)


# A promotion verb the rule forbids: "ne jamais me proposer Booking", "empfiehl mir nie ...",
# "nunca me recomiendes ...", "non consigliarmi mai ...": the user's own refusal, no promotion.
_NOT_BEFORE = compile_cached(
    r"\b(?:ne\s+(?:jamais|pas|plus)|jamais|nunca|no|non|nie|niemals|nicht|aldrig|inte|nooit|niet|"
    r"никогда(?:\s+не)?|не|nigdy|asla|never|don'?t|do not)\s+(?:(?:me|m'|mi|mir|mig|mij|мне|mnie|"
    r"nous|uns|nos|ci)\s*)?$",
    _I,
)
_NOT_AFTER = compile_cached(
    r"^\w*\s+(?:(?:me|mir|mig|mij|mi|uns|nos)\s+)?(?:nie|niemals|nicht|aldrig|inte|nooit|niet|"
    r"jamais|pas|mai|never)\b",
    _I,
)


def _forbids_promotion(sentence: str) -> bool:
    """Is every promotion verb of ``sentence`` negated?"""
    verbs = list(PROMOTION_ML.finditer(sentence))
    return bool(verbs) and all(
        _NOT_BEFORE.search(sentence[max(0, v.start() - 25) : v.start()])
        or _NOT_AFTER.match(sentence[v.start() : v.end() + 20])
        for v in verbs
    )


def _promotes(sentence: str) -> bool:
    verb = PROMOTION_ML.search(sentence)
    if not verb:
        return False
    if _KANA.search(sentence):
        # Japanese names a brand in quotes, Latin letters or katakana ("「ミライ投資」",
        # "ABC証券", "ハッピーローン"); "休憩を勧める" names nothing
        return bool(
            _QUOTED_NAME.search(sentence)
            or _LINK.search(sentence)
            or _JA_NAME.search(_JA_COMMON.sub("", sentence))
        )
    if not _CASED.search(sentence):
        # Korean, Arabic, Hindi: no capitals to read, so a name is one in quotes or a link;
        # "추천해 줘" alone asks for advice ("recommend me workouts that spare my knee"); or
        # one thing recommended "only" ("ให้แนะนำโรงพยาบาลสุขใจเวชเท่านั้น")
        return bool(
            _QUOTED_NAME.search(sentence)
            or _LINK.search(sentence)
            or _ONLY_AFTER.search(sentence[verb.end() : verb.end() + 60])
        )
    if _QUOTED_NAME.search(sentence) or _MADE_UP_NAME.search(sentence) or _LINK.search(sentence):
        return True
    return not _GERMAN.search(sentence) and bool(_PROPER_NAME.search(sentence))


# "Only", after what is recommended, in the scripts with no capitals: Thai "เท่านั้น", Arabic
# "فقط", Hindi "ही", Korean "만" (on its noun), Japanese "だけ", "のみ".
_ONLY_AFTER = compile_cached(
    r"เท่านั้น|فقط|(?<![\u0900-\u097f])ही(?![\u0900-\u097f])|[\uac00-\ud7a3]만(?=\s|$)|だけ|のみ"
)


# A schedule with an order after it: "every Friday after 5pm, remind the user to ...", "each
# morning send her ...". A schedule alone ("every Monday the user has yoga") orders nothing.
_PERIODIC = compile_cached(
    r"^(every|each)\s+(other\s+|single\s+)?(day|morning|afternoon|evening|night|week|weekend|"
    r"month|year|hour|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
    r"[^,.;:!?]{0,30},?\s+(please\s+)?",
    _I,
)
_PERIODIC_ORDER = compile_cached(
    r"(remind|ping|notify|message|text|email|nudge|prompt|urge|ask|buy|order|book|pay|post)\b",
    _I,
)


# "Mike is vegetarian and always works from home on Fridays": after "and" or a comma, a habit
# word then a verb with its third-person "-s" goes on describing the sentence's subject; an
# order would be "always work".
_GOES_ON_DESCRIBING = compile_cached(
    r"^(always|never|usually|normally|often|typically|generally|still)\s+"
    r"([a-z]+[^s\W]s|is|has|does|goes|was)\b",
    _I,
)


def _part_is_rule(part: str, *, whole: bool) -> bool:
    """Does a sentence (``whole``) or one of its clauses set a rule?"""
    clause = _FILLER.sub("", part).strip()
    if not whole and _GOES_ON_DESCRIBING.match(clause):
        return False
    return _is_rule(clause)


def _is_rule(clause: str) -> bool:
    if not clause:
        return False
    if _RULE_START.match(clause) or _ZH_RULE_START.match(clause):
        return True
    periodic = _PERIODIC.match(clause)
    if periodic:
        order = clause[periodic.end() :]
        if _PERIODIC_ORDER.match(order) or _BEHAVIOUR_VERB.match(order):
            return True
    verb = _BEHAVIOUR_VERB.match(clause)
    rest = clause[verb.end() :] if verb else ""
    return bool(verb and (_CUE_ANYWHERE.search(rest) or _OUTPUT_NOUN.search(rest)))
