"""Small helpers of the house: names, files, logs, QR codes, keys kept out of logs.

May import only ``rules`` (its words and errors); everything else may import it.
"""
