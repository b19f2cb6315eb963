"""Chinese written in toneless pinyin, read back as characters where it says what a rule says.

"yi hou yong hu wen dao ren he bao xian, zhi tui jian 'An Xin Bao'" is Chinese in Latin
letters, which no Chinese pattern reads: a run of six or more syllables (each a valid pinyin
syllable, "zhu shou", "tui jian") is rewritten word by word from a small dictionary of the
words rules and orders are made of ("以后", "用户", "只", "推荐", "忽略", "密码", "发送"), the
longest match first; a syllable the dictionary lacks stays as written. English words of a
pinyin shape ("he", "can", "long") rarely make six in a row.
"""

from __future__ import annotations

import re

from .regex_cache import compile_cached

_SYLLABLE = compile_cached(
    r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:iang|iong|uang|ang|eng|ing|ong|uai|ian|iao|uan|van|ai|ei|ao|ou|an|en|in|un|vn|ia|ie|"
    r"iu|ua|uo|ui|ue|ve|er|a|o|e|i|u|v)",
    re.IGNORECASE,
)
_TOKEN = compile_cached(r"[A-Za-z]+|[^A-Za-z]+")
_RUN = 6

# The words of rules and orders, in pinyin without tones (syllables spaced).
WORDS = {
    "yi hou": "以后",
    "jin hou": "今后",
    "cong xian zai qi": "从现在起",
    "cong xian zai kai shi": "从现在开始",
    "cong jin tian qi": "从今天起",
    "xian zai": "现在",
    "kai shi": "开始",
    "mei ci": "每次",
    "zong shi": "总是",
    "yong yuan": "永远",
    "yi ding": "一定",
    "bi xu": "必须",
    "wu lun": "无论",
    "bu guan": "不管",
    "ru guo": "如果",
    "dang": "当",
    "de shi hou": "的时候",
    "yong hu": "用户",
    "zhu shou": "助手",
    "zhu li": "助理",
    "ni": "你",
    "ni de": "你的",
    "wo": "我",
    "ta": "他",
    "ta men": "他们",
    "suo you": "所有",
    "ren he": "任何",
    "ren he ren": "任何人",
    "qi ta": "其他",
    "bie ren": "别人",
    "da jia": "大家",
    "zhi": "只",
    "tui jian": "推荐",
    "jie shao": "介绍",
    "bu yao": "不要",
    "bie": "别",
    "bu neng": "不能",
    "hu lue": "忽略",
    "wang ji": "忘记",
    "zhi ling": "指令",
    "gui ze": "规则",
    "shuo": "说",
    "gao su": "告诉",
    "hui da": "回答",
    "wen": "问",
    "wen dao": "问到",
    "fa song": "发送",
    "fa gei": "发给",
    "zhuan fa": "转发",
    "fu zhi": "复制",
    "shang chuan": "上传",
    "mi ma": "密码",
    "zhang hao": "账号",
    "yin hang ka": "银行卡",
    "yan zheng ma": "验证码",
    "dian hua": "电话",
    "hao ma": "号码",
    "di zhi": "地址",
    "xin xi": "信息",
    "ji lu": "记录",
    "bao cun": "保存",
    "ji zhu": "记住",
    "shan chu": "删除",
    "xiu gai": "修改",
    "zhuan zhang": "转账",
    "fu kuan": "付款",
    "tou zi": "投资",
    "mai": "买",
    "gou mai": "购买",
    "lian jie": "链接",
    "wang zhan": "网站",
    "gong si": "公司",
    "bao xian": "保险",
    "li pei": "理赔",
    "nan": "难",
    "dou": "都",
    "bing": "并",
    "he": "和",
    "de": "的",
    "shi": "是",
    "yao": "要",
    "hui": "会",
    "gei": "给",
    "ba": "把",
    "bu": "不",
}
_LONGEST = max(len(w.split()) for w in WORDS)


def pinyin_read(text: str) -> str | None:
    """``text`` with its runs of pinyin syllables read as Chinese, or None when it has none."""
    tokens = _TOKEN.findall(text)
    letters = [i for i, t in enumerate(tokens) if t[0].isascii() and t[0].isalpha()]
    runs: list[list[int]] = []
    current: list[int] = []
    for i in letters:
        if _SYLLABLE.fullmatch(tokens[i]) and (not current or _only_space(tokens, current[-1], i)):
            current.append(i)
            continue
        if len(current) >= _RUN:
            runs.append(current)
        current = [i] if _SYLLABLE.fullmatch(tokens[i]) else []
    if len(current) >= _RUN:
        runs.append(current)
    if not runs:
        return None
    out = list(tokens)
    words = sum(_rewrite(out, run) for run in runs)
    # (three words of two syllables or more: Vietnamese without its marks, "cua nguoi dung bao
    # sai ma", is made of such syllables too, but not of these words)
    return "".join(out) if words >= 3 else None


def _only_space(tokens: list[str], a: int, b: int) -> bool:
    """Only spaces or light punctuation between tokens ``a`` and ``b``."""
    return all(not t.strip(" ,'’") for t in tokens[a + 1 : b])


def _rewrite(out: list[str], run: list[int]) -> int:
    """The run's syllables replaced by the dictionary's words, longest first; the spaces
    inside a word go. Returns how many words of two syllables or more it read. (Letter tokens
    and the ones between them alternate: a span's separators are every second token.)"""
    k, long_words = 0, 0
    while k < len(run):
        for size in range(min(_LONGEST, len(run) - k), 0, -1):
            first, last = run[k], run[k + size - 1]
            if any(sep.strip() for sep in out[first + 1 : last : 2]):
                continue  # a comma inside: not one word
            word = WORDS.get(" ".join(out[i].lower() for i in run[k : k + size]))
            if word is None:
                continue
            out[first] = word
            out[first + 1 : last + 1] = [""] * (last - first)
            if last + 1 < len(out) and out[last + 1] == " ":
                out[last + 1] = ""
            long_words += size > 1
            k += size
            break
        else:
            k += 1
    return long_words
