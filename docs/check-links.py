#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/**/*.md: every target file exists, and every #anchor is the
GitHub slug of a heading in the target page. Run from anywhere: python3 docs/check-links.py"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r'!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)')


def prose(text):
    """The text outside fenced code blocks, with inline code emptied (line structure kept)."""
    out, fence = [], False
    for line in text.split('\n'):
        if line.lstrip().startswith('```'):
            fence = not fence
            out.append('')
        else:
            out.append('' if fence else re.sub(r'`[^`]*`', '``', line))
    return out


def slugs(path):
    seen, result = {}, set()
    fence = False
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.lstrip().startswith('```'):
            fence = not fence
            continue
        m = None if fence else re.match(r'#{1,6} +(.*?) *#* *$', line)
        if not m:
            continue
        text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', m.group(1))
        slug = re.sub(r'[^\w\- ]', '', text.lower()).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else '%s-%d' % (slug, n))
    return result


def pages():
    yield os.path.join(ROOT, 'README.md')
    for directory, _, files in os.walk(os.path.join(ROOT, 'docs')):
        for name in sorted(files):
            if name.endswith('.md'):
                yield os.path.join(directory, name)


def main():
    problems, links = [], 0
    for page in pages():
        lines = prose(open(page, encoding='utf-8').read())
        # links may wrap: join each paragraph's lines, keeping the first line's number
        for number, line in enumerate(lines, 1):
            for m in LINK.finditer(line + ' ' + (lines[number] if number < len(lines) else '')):
                if m.start() >= len(line):
                    continue
                target = m.group(2)
                if re.match(r'[a-z]+:', target):
                    continue
                links += 1
                path, _, anchor = target.partition('#')
                resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = '%s:%d: %s' % (os.path.relpath(page, ROOT), number, target)
                if not os.path.exists(resolved):
                    problems.append('%s: no file %s' % (where, os.path.relpath(resolved, ROOT)))
                elif anchor and (not resolved.endswith('.md') or anchor not in slugs(resolved)):
                    problems.append('%s: no heading with anchor #%s' % (where, anchor))
    for problem in problems:
        print(problem)
    print('%d relative links checked, %d broken' % (links, len(problems)))
    return 1 if problems else 0


sys.exit(main())
